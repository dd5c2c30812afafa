// expect: found 13
// property: locks
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct timespec at;
int x;

void *t(void *a) {
  pthread_mutex_lock(&m);
  // The holder asks again (it would time out): a relock.
  if (x && pthread_mutex_timedlock(&m, &at) == 0)
    pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  x = 1;
  pthread_join(a, 0);
  return 0;
}
