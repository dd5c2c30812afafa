// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Conversion to _Bool tests for non-zero; a _Bool holds 0 or 1.
#include "prelude.h"
int main(void) {
  _Bool b = 256;
  assert(b == 1);
  _Bool c = __VERIFIER_nondet_bool();
  assert(c == 0 || c == 1);
  int n = !5 + !!5;
  assert(n == 1);
  return 0;
}
