// expect: failed 30 rounds=1 switches=2
/* SV-COMP's lock idiom: an atomic function that waits (assume) and then
   takes. A thread blocked at the acquire must not end the run for the
   others: main releases, the thread takes the lock and writes x = 1, and
   main reads it (it never took the lock to read). */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_assume(int);
int m, x;
void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(m == 0);
  m = 1;
}
void __VERIFIER_atomic_release(void) {
  __VERIFIER_assume(m == 1);
  m = 0;
}
void *t(void *arg) {
  __VERIFIER_atomic_acquire();
  x = 1;
  x = 0;
  __VERIFIER_atomic_release();
  return 0;
}
int main(void) {
  pthread_t a;
  __VERIFIER_atomic_acquire();
  pthread_create(&a, 0, t, 0);
  __VERIFIER_atomic_release();
  assert(x == 0);
  return 0;
}
