// seqc: --method kiss --ts 1 --property overflow
// Signed overflow checks in threads: an operation whose operand reads
// shared memory or draws a value is split first; atomic code is checked
// in place.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
long long h;

void __VERIFIER_atomic_add(int v) { x = x + v; }

void *t(void *arg) {
    x = x + 40;
    h = h * x;
    __VERIFIER_atomic_add(__VERIFIER_nondet_int());
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, t, 0);
    int v = x > 0 ? -x : x - 1;
    pthread_join(a, 0);
    return v;
}
