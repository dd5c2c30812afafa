// run: --unwind 1 | --unwind 2 | FAILED
// `++` on an `_Atomic _Bool` that holds 1 leaves 1 (C11 6.5.2.4p2: the
// sum converted back to _Bool), so the assertion fails on every run.
// The atomic add stored 2 into the _Bool, whose later read stopped the
// path as a trap value: the SMT route said SUCCESSFUL (a missed bug).
#include "prelude.h"
_Atomic _Bool b = 1;
int main(void) {
  b++;
  int vb = b;
  assert(vb == 0);
  return 0;
}
