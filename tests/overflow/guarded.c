// expect: none
// property: overflow
// The twins of short_circuit.c and conditional.c: the operand that could
// overflow is evaluated only when it cannot.
#include <pthread.h>

int x = 2147483647;
int y = 0;

void *set(void *arg) {
    y = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    int v = y;
    int r = v == 0 && x + v > 0;
    int q = v ? x - v : x + v;
    pthread_join(t, 0);
    return r != q;
}
