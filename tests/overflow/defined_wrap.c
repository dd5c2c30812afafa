// expect: none
// property: overflow
// C defines all of these: short and char arithmetic is done in int (the
// conversion back is gcc's wrap), unsigned arithmetic wraps, and so do
// atomic read-modify-writes (C11 7.17.7.5).
#include <pthread.h>

short s = 32767;
signed char c = 127;
unsigned u = 4294967295u;
int i = 2147483647;

void *bump(void *arg) {
    s++;
    s = s + 1;
    c = c * 2;
    u = u + 1;
    __atomic_fetch_add(&i, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, bump, 0);
    pthread_create(&b, 0, bump, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
