// expect: found 11
// property: overflow
// The same test without the lock: both threads pass it, then both add.
#include <pthread.h>

int x = 2147483600;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
    if (x <= 2147483647 - 40)
        x += 40;
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
