// expect: found 18
// property: overflow
// x + v is evaluated only when v is not 0, which needs the thread first.
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
    int r = v != 0 && x + v > 0;
    pthread_join(t, 0);
    return r;
}
