// expect: successful
/* Every attribute call seqc models as no operation returns 0, as in
   glibc. The C output once called them for real under KISS and
   --method none, and CBMC, with no body for them, made up a result:
   exit 3 via CBMC. */
#include <pthread.h>
#include <assert.h>
void *f(void *a) { return 0; }
int main(void) {
  pthread_t t; pthread_barrierattr_t ba; pthread_rwlockattr_t ra; pthread_condattr_t ca; pthread_attr_t at; pthread_mutexattr_t ma;
  pthread_create(&t, 0, f, 0);
  assert(pthread_condattr_init(&ca) == 0);
  assert(pthread_condattr_destroy(&ca) == 0);
  assert(pthread_rwlockattr_init(&ra) == 0);
  assert(pthread_rwlockattr_destroy(&ra) == 0);
  assert(pthread_barrierattr_init(&ba) == 0);
  assert(pthread_barrierattr_destroy(&ba) == 0);
  assert(pthread_attr_init(&at) == 0);
  assert(pthread_attr_destroy(&at) == 0);
  assert(pthread_mutexattr_init(&ma) == 0);
  assert(pthread_mutexattr_destroy(&ma) == 0);
  pthread_join(t, 0);
  return 0;
}
