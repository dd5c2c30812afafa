// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A null test guards the write.
#include "prelude.h"
int x;
int main(void) {
  int *p = __VERIFIER_nondet_int() ? &x : 0;
  if (p)
    *p = 3;
  assert(x == 3 || p == 0);
  return 0;
}
