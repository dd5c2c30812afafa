// expect: found 20
// property: overflow
// Overflow in a constant expression is undefined like any other: seqc
// once folded INT_MAX + 1 to INT_MIN before the check could see it.
// The constants that fit (INT_MIN spelled -INT_MAX - 1, an unsigned
// shift, an arm not taken) are not reports. The overflow is main's on
// every run; the worker only makes the program concurrent.
#include <pthread.h>
#include <limits.h>

int r;
void *worker(void *arg) { r = 1; return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int a = INT_MIN;
    unsigned b = 1u << 31;
    int c = 1 ? 5 : INT_MAX + 1;
    r = a + (int)(b >> 31) + c + (INT_MAX + 1) * 0;
    pthread_join(t, 0);
    return 0;
}
