// run: --unwind 1 | --unwind 2 --error-label ERROR | FAILED
// The SV-COMP 2020 form: an ERROR label with an empty reach_error.
#include "prelude.h"
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 5 && x < 7) {
  ERROR:
    reach_error();
  }
  return 0;
}
