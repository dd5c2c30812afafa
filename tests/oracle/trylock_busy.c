// expect: failed 13 rounds=1 switches=1
/* trylock fails while main holds the lock: the worker then takes the
   error path and asserts. Round 1: main locks and creates, the worker's
   trylock sees the lock held. One switch. */
#include "prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int got;
void *worker(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    got = 1;
    pthread_mutex_unlock(&m);
  } else {
    assert(0);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
