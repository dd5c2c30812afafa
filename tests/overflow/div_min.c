// expect: found 18 19
// property: overflow
// INT_MIN / -1 and INT_MIN % -1 are undefined: only after the thread
// sets d to -1. Division by zero is not overflow.
#include <pthread.h>

int d = 0;

void *set(void *arg) {
    d = -1;
    return 0;
}

int main(void) {
    pthread_t t;
    int n = -2147483647 - 1;
    pthread_create(&t, 0, set, 0);
    int q = n / d;
    int r = n % d;
    pthread_join(t, 0);
    return 0;
}
