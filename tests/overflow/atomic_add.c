// expect: found 9
// property: overflow
// Atomic sections are checked too: each add is atomic, their sum is not
// in range.
#include <pthread.h>

int x = 2147483600;

void __VERIFIER_atomic_add(void) { x += 40; }

void *add(void *arg) {
    __VERIFIER_atomic_add();
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
