// expect: successful
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m;
struct timespec at;
int x;

// An error-checking mutex timed-locked by its holder is EDEADLK at once;
// another thread's timed lock takes it or times out, never EINVAL.
void *t(void *a) {
  int r = pthread_mutex_timedlock(&m, &at);
  assert(r == 0 || r == ETIMEDOUT);
  if (r == 0) {
    assert(pthread_mutex_timedlock(&m, &at) == EDEADLK);
    x++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &ma);
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  assert(x >= 1);
  return 0;
}
