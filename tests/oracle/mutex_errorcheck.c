// expect: successful
/* An error-checking mutex: its holder's relock returns EDEADLK instead of
   blocking, and an unlock by a thread that does not hold it returns EPERM
   and leaves it held. Main holds m throughout the worker's life, so the
   worker's unlock always fails with EPERM, and main's own unlock then
   succeeds. A model that drops the kind releases the mutex and returns 0:
   a false bug at the assertion on `result`. */
#include "prelude.h"
pthread_mutex_t m;
int result = -1;
void *worker(void *arg) {
  result = pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  assert(pthread_mutex_lock(&m) == EDEADLK);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(result == EPERM);
  assert(pthread_mutex_unlock(&m) == 0);
  return 0;
}
