// expect: found 23 25
// property: overflow
// A floating value made an integer must fit: 3e9 does not fit an int,
// -1.0 does not fit an unsigned; -2^31 as a float, 2147483647.9 and
// -0.5 made unsigned do (their integral parts fit).
#include <pthread.h>

double d = 1.5;
double n = 0.0;

void *set(void *arg) {
    d = 3e9;
    n = -1.0;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    float f = -2147483648.0f;
    int a = (int)f;
    int b = (int)2147483647.9;
    int c = (int)d;
    unsigned u = (unsigned)-0.5;
    unsigned v = (unsigned)n;
    pthread_join(t, 0);
    return a + b + c + (int)(u + v);
}
