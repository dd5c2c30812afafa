// expect: found 9
// property: overflow
// An input value that makes the sum overflow (3 or more).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

void *work(void *arg) {
    int v = __VERIFIER_nondet_int();
    int w = v + 2147483645;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, work, 0);
    pthread_join(t, 0);
    return 0;
}
