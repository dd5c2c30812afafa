// expect: failed 16 rounds=1 switches=1
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct timespec at = {0, 1000000000};

void *t(void *a) {
  int r = pthread_mutex_timedlock(&m, &at);
  // tv_nsec is out of range: no error while the mutex is free (it is
  // taken at once), EINVAL when the call would wait.
  if (r == 0)
    pthread_mutex_unlock(&m);
  assert(r != EINVAL);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
