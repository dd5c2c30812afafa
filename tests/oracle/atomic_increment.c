// expect: successful
/* One thread increments inside an atomic section, the other in an atomic
   function: each increment is one step, so no update is lost. */
#include "prelude.h"
int x;
void __VERIFIER_atomic_inc(void) { x++; }
void *a_fn(void *arg) {
  __VERIFIER_atomic_begin();
  x++;
  __VERIFIER_atomic_end();
  return 0;
}
void *b_fn(void *arg) {
  __VERIFIER_atomic_inc();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, a_fn, 0);
  pthread_create(&b, 0, b_fn, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
