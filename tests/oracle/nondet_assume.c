// expect: failed 10 rounds=1 switches=0
/* Single-threaded: assume narrows a nondet value to 2, which fails the
   assertion; no thread switch is needed. */
#include "prelude.h"
int main(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v > 1 && v < 3);
  int *p = &v;
  *p += 1;
  assert(v != 3);
  return 0;
}
