// run: --unwind 1 | --unwind 2 | FAILED
// case 1 falls through into case 2: r = 11.
#include "prelude.h"
int main(void) {
  int x = __VERIFIER_nondet_int();
  int r = 0;
  switch (x) {
  case 1:
    r = 10;
  case 2:
    r += 1;
    break;
  case 5:
    r = 50;
    break;
  default:
    r = -1;
  }
  assert(r != 11);
  return 0;
}
