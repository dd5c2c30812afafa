// expect: failed 24 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* main holds the write lock while the worker tries both locks: each try
   returns EBUSY then. The assertion says they never fail. */
#include "prelude.h"
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int busy;
void *worker(void *arg) {
  if (pthread_rwlock_tryrdlock(&rw) == EBUSY)
    busy = busy + 1;
  else
    pthread_rwlock_unlock(&rw);
  if (pthread_rwlock_trywrlock(&rw) == EBUSY)
    busy = busy + 1;
  else
    pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t w;
  pthread_rwlock_wrlock(&rw);
  pthread_create(&w, 0, worker, 0);
  pthread_rwlock_unlock(&rw);
  pthread_join(w, 0);
  assert(busy < 2);
  return 0;
}
