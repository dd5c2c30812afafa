// expect: found 10
// property: overflow
// Two threads add 40 to x; the second add leaves int's range.
#include <pthread.h>

int x = 2147483600;

void *add(void *arg) {
    int v = x;
    x = v + 40;
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
