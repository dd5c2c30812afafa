// expect: failed 16 rounds=1 switches=0
#include <pthread.h>
#include <time.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
struct timespec at;

int main(void) {
  pthread_mutex_lock(&m);
  // Nobody signals: the wait may time out (or wake spuriously).
  int r = pthread_cond_timedwait(&c, &m, &at);
  pthread_mutex_unlock(&m);
  assert(r != ETIMEDOUT);
  return 0;
}
