// expect: successful
/* An atomic function calls a plain one: bar's two writes are one step,
   because the whole call of __VERIFIER_atomic_f is. A context switch
   inside bar would let main read x == 1 and report a bug that does not
   exist (both sequentializations once did). */
#include "prelude.h"
int x = 0;
void bar(void) {
  x = 1;
  x = 0;
}
void __VERIFIER_atomic_f(void) { bar(); }
void *t(void *arg) {
  __VERIFIER_atomic_f();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = x;
  __VERIFIER_assert(v == 0);
  pthread_join(h, 0);
  return 0;
}
