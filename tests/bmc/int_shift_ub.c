// run: --unwind 1 | --unwind 2 | FAILED
// A shift by >= 32 is pinned to any value: 0 is one of them (CBMC's choice is 0 too).
#include "prelude.h"
int main(void) {
  int s = __VERIFIER_nondet_int();
  unsigned int r = 1u << s;
  if (s >= 32)
    assert(r != 0);
  return 0;
}
