// run: --unwind 1 | --unwind 2 | FAILED
// u + 1 wraps to 0 for u = UINT_MAX, so v > u fails.
#include "prelude.h"
int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  unsigned int v = u + 1;
  assert(v > u);
  return 0;
}
