// expect: found 16 18
// property: overflow
// A compound assignment on a signed _Atomic object is C's arithmetic
// (C11 6.5.16.2p3 and note 113), so its overflow is undefined, unlike
// atomic_fetch_add (7.17.7.5p3). Each add is one atomic step and fits;
// the second one to run overflows, whichever it is. w overflows at once;
// u wraps, as unsigned arithmetic does.
#include <pthread.h>
#include <stdatomic.h>

_Atomic int x = 2147483600;
_Atomic unsigned u = 4294967295u;
_Atomic long long w = 9223372036854775807LL;

void *add(void *arg) {
    x += 40;
    u += 1;
    w -= -1;
    atomic_fetch_add(&x, 1000);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
