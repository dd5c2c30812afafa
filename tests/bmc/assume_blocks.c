// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Assumptions restrict the paths; nothing after assume(0) is reachable.
#include "prelude.h"
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 10);
  assert(x > 5);
  __VERIFIER_assume(0);
  assert(0);
  return 0;
}
