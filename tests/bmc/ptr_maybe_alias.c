// run: --unwind 1 | --unwind 2 | FAILED
// p may point to a.
#include "prelude.h"
int main(void) {
  int a = 0, b = 0;
  int *p = __VERIFIER_nondet_int() ? &a : &b;
  *p = 1;
  assert(a == 0);
  return 0;
}
