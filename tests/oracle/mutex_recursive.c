// expect: successful
/* A recursive mutex may be locked again by its holder (the relock
   returns 0 and counts) and is released after as many unlocks. Both
   increments of each thread happen while it holds the mutex, so after
   the joins count == 4. A model without kinds either deadlocks on the
   relock (no false bug, but the run is lost) or, treating it as
   error-checking, makes the relock fail. */
#include "prelude.h"
pthread_mutex_t m;
int count;
void twice(void) {
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r == 0);
  count++;
  pthread_mutex_unlock(&m);
  count++;
  pthread_mutex_unlock(&m);
}
void *worker(void *arg) {
  twice();
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  twice();
  pthread_join(t, 0);
  assert(count == 4);
  return 0;
}
