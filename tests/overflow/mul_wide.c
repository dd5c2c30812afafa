// expect: found 19 20
// property: overflow
// A thread publishes factors; main squares them. 3037000500 squared
// passes 2^63 - 1; 65536 * 32768 passes 2^31 - 1.
#include <pthread.h>

long long f = 2;
int k = 2;

void *set(void *arg) {
    f = 3037000500LL;
    k = 65536;
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
