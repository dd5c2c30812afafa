// expect: none
// property: overflow
// The twin of mul_wide.c: the largest factors whose products fit
// (3037000499 squared is 9223372030926249001; 65535 * 32768 < 2^31).
#include <pthread.h>

long long f = 2;
int k = 2;

void *set(void *arg) {
    f = -3037000499LL;
    k = -65536;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    long long p = f * f;
    int q = k * 32768;
    pthread_join(t, 0);
    return 0;
}
