// expect: no-race
/* Atomic sections and atomic functions: two atomic accesses never race
   (SV-COMP's definition). */
#include "../oracle/prelude.h"
int x = 0;
int y = 0;
void __VERIFIER_atomic_inc(void) { y = y + 1; }
void *t(void *arg) {
  __VERIFIER_atomic_begin();
  x = x + 1;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_inc();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  __VERIFIER_atomic_begin();
  x = 5;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_inc();
  pthread_join(h, 0);
  return 0;
}
