// run: --unwind 1 | --unwind 2 | FAILED
// A failure before a loop that never ends is still a failure.
#include "prelude.h"
int main(void) {
  int x = __VERIFIER_nondet_int();
  assert(x != 3);
  while (1) {
    x++;
  }
  return 0;
}
