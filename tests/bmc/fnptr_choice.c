// run: --unwind 1 | --unwind 2 | FAILED
// op may be sub.
#include "prelude.h"
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int main(void) {
  int (*op)(int, int) = __VERIFIER_nondet_int() ? add : sub;
  int r = op(5, 3);
  assert(r == 8);
  return 0;
}
