// run: --unwind 1 | --unwind 2 | FAILED
// x / 0 is pinned to any value, so r may be 7.
#include "prelude.h"
int main(void) {
  int b = __VERIFIER_nondet_int();
  int r = 10 / b;
  if (b == 0)
    assert(r != 7);
  return 0;
}
