// expect: found 17
// property: overflow
// -INT_MIN overflows; -(INT_MIN + 1) does not.
#include <pthread.h>

int m = 5;

void *set(void *arg) {
    m = -2147483647;
    m = m - 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    int p = -m;
    pthread_join(t, 0);
    return 0;
}
