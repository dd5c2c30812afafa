// expect: successful
/* glibc's pthread_mutex_destroy returns EBUSY for a held mutex and leaves
   it usable (POSIX: undefined). The thread destroys m only once main has
   released it, so x is 1 by then. (seqc once returned 0 at once: a false
   FAILED on every route.) */
#include <pthread.h>
#include <assert.h>
#include <errno.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *f(void *a) {
  if (pthread_mutex_destroy(&m) == 0)
    assert(x == 1);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, f, 0);
  assert(pthread_mutex_destroy(&m) == EBUSY);
  x = 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
