// run: --unwind 1 | --unwind 2 | FAILED
// A draw assigned straight to a global: CBMC's trace showed only the
// global's new value, the replay had to guess the draw, and any value
// outside the oracle's own range ended in exit 3. The C output casts
// every draw, so CBMC keeps it as a return value the replay reads.
#include "prelude.h"
int x;
int main(void) {
  x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  assert(x != 1000 || y != -5000);
  return 0;
}
