// expect: successful
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
struct timespec at;
int ready;

// The usual pattern: wait until ready or the time is up; the mutex is
// held again whatever the wait returned.
void *t(void *a) {
  pthread_mutex_lock(&m);
  int r = 0;
  while (!ready && r != ETIMEDOUT)
    r = pthread_cond_timedwait(&c, &m, &at);
  assert(ready || r == ETIMEDOUT);
  ready = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  if (!ready)
    ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  assert(ready == 2);
  return 0;
}
