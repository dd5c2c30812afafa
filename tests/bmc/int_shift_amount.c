// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Shifts by an amount in [0, 32) are exact.
#include "prelude.h"
int main(void) {
  int s = __VERIFIER_nondet_int();
  __VERIFIER_assume(s >= 0 && s < 32);
  unsigned int r = 1u << s;
  assert(r != 0);
  assert(r >> s == 1);
  return 0;
}
