// expect: failed 28 rounds=1 switches=3
// A create site that a backward goto runs twice makes two threads, and
// the failure needs both; a forward goto (`goto done`) loops nothing.
#include <assert.h>
#include <pthread.h>

int x;

void *inc(void *arg)
{
    x = x + 1;
    return 0;
}

int main(void)
{
    pthread_t h[2];
    int i = 0;
again:
    pthread_create(&h[i], 0, inc, 0);
    i = i + 1;
    if (i < 2)
        goto again;
    if (x > 5)
        goto done;
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    assert(x != 2);
done:
    return 0;
}
