// run: --unwind 3 | --unwind 4 | SUCCESSFUL
// run: --unwind 5 | --unwind 6 | FAILED
// s == 8 needs 4 iterations: out of reach with --unwind 3.
#include "prelude.h"
int main(void) {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  for (int i = 0; i < n; i++)
    s += 2;
  assert(s != 8);
  return 0;
}
