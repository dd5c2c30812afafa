// expect: failed 15 rounds=1 switches=1
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct timespec at;
int x;

void *t(void *a) {
  int r = pthread_mutex_timedlock(&m, &at);
  // Times out while main holds the mutex (the time is long past).
  assert(r == 0 || r == ETIMEDOUT);
  assert(r == 0);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  x = 2;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
