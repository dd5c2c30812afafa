// expect: found 17
// property: overflow
// 1 << 31 is not an int; -1 << 31 is INT_MIN and 1u << 31 is unsigned.
#include <pthread.h>

int s = 1;

void *set(void *arg) {
    s = 31;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, set, 0);
    int n = -1 << s;
    int a = 1 << s;
    unsigned b = 1u << s;
    pthread_join(t, 0);
    return 0;
}
