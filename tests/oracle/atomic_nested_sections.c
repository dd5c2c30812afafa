// expect: successful
/* Atomic sections nest: the inner end leaves the thread inside the
   outer section, so x = 2 is never seen. The sequentializations kept a
   flag that the inner end cleared, and the switch points came back
   (exit 3: the oracle counts the depth; a reviewer's nest.c). */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *t(void *arg) {
  __VERIFIER_atomic_begin();
  __VERIFIER_atomic_begin();
  x = 1;
  __VERIFIER_atomic_end();
  x = 2;
  x = 0;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  assert(x != 2);
  return 0;
}
