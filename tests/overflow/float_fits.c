// expect: none
// property: overflow
// The twin of float_to_int.c: the largest values whose integral parts
// fit (2147483647.5 and -2147483648.9 in an int, 4294967295.5 in an
// unsigned).
#include <pthread.h>

double d = 1.5;
double n = 0.0;

void *set(void *arg) {
    d = 2147483647.5;
    n = 4294967295.5;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    int a = (int)-2147483648.9;
    int c = (int)d;
    unsigned v = (unsigned)n;
    pthread_join(t, 0);
    return a + c + (int)(v & 1u);
}
