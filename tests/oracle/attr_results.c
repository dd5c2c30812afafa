// expect: successful
/* Attribute calls return glibc's results and keep what they set: EINVAL
   for a detach state, mutex kind or stack size outside the valid ones,
   ENOTSUP for process scope (Linux has none); the get functions read
   back what was set. A detach with pthread_detach is EINVAL the second
   time. Every assertion holds in every run. */
#include "prelude.h"
void *worker(void *arg) { return 0; }
int main(void) {
  pthread_attr_t a;
  int s = -1;
  assert(pthread_attr_init(&a) == 0);
  assert(pthread_attr_getdetachstate(&a, &s) == 0 && s == 0);
  assert(pthread_attr_setdetachstate(&a, 5) == EINVAL);
  assert(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0);
  assert(pthread_attr_getdetachstate(&a, &s) == 0 && s == PTHREAD_CREATE_DETACHED);
  assert(pthread_attr_setstacksize(&a, 100) == EINVAL);
  assert(pthread_attr_setstacksize(&a, 1 << 20) == 0);
  assert(pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS) == ENOTSUP);
  pthread_mutexattr_t ma;
  int k = -1;
  pthread_mutexattr_init(&ma);
  assert(pthread_mutexattr_settype(&ma, 9) == EINVAL);
  assert(pthread_mutexattr_gettype(&ma, &k) == 0 && k == 0);
  assert(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK) == 0);
  assert(pthread_mutexattr_gettype(&ma, &k) == 0 && k == PTHREAD_MUTEX_ERRORCHECK);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(pthread_detach(t) == 0);
  assert(pthread_detach(t) == EINVAL);
  return 0;
}
