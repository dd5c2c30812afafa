// run: --unwind 1 | --unwind 2 | FAILED
// 100000 * 100000 overflows int and wraps to a negative number.
#include "prelude.h"
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 100000);
  int y = x * x;
  assert(y >= 0);
  return 0;
}
