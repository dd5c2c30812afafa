// run: --unwind 1 | --unwind 2 | FAILED
// With b < 0 the remainder can exceed b (5 % -3 == 2).
#include "prelude.h"
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  __VERIFIER_assume(b != 0);
  assert(a % b < b);
  return 0;
}
