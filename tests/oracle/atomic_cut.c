// expect: successful
/* A loop cut by the unwind bound inside an atomic function: the thread
   never leaves the function within the bound, so x = 1 is never seen
   outside it. The oracle once stopped only that thread and reported the
   assertion (a reviewer's t32.c); the sequentializations dropped the
   run, and KISS's C output made CBMC fail. */
#include <assert.h>
#include <pthread.h>

int x, n = 5;

void __VERIFIER_atomic_work(void) {
  x = 1;
  for (int i = 0; i < n; i++) {
  }
  x = 0;
}

void *t(void *arg) {
  __VERIFIER_atomic_work();
  return 0;
}

int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  int v = x;
  assert(v == 0);
  pthread_join(th, 0);
  return 0;
}
