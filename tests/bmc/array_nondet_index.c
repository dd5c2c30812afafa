// run: --unwind 1 | --unwind 2 | FAILED
// k = 2 writes a[2].
#include "prelude.h"
int a[5];
int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 5);
  a[k] = 10;
  assert(a[2] != 10);
  return 0;
}
