// expect: none
// property: overflow
// The twin of both_add.c: the room left is tested under the lock.
#include <pthread.h>

int x = 2147483600;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *add(void *arg) {
    pthread_mutex_lock(&m);
    if (x <= 2147483647 - 40)
        x = x + 40;
    pthread_mutex_unlock(&m);
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
