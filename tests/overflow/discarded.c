// expect: found 18
// property: overflow
// C evaluates an expression whose value is not used (C11 6.8.3p2): seqc
// once dropped such statements with their checks. The worker makes x
// INT_MAX before main's discarded product in one order only; the safe
// discarded operations before it are not reports.
#include <pthread.h>

int x = 1, z;

void *worker(void *arg) { x = 2147483647; return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int y = x;
    (void)(y - 1);
    z ? 0 : y * 2;
    y * 2;
    pthread_join(t, 0);
    return 0;
}
