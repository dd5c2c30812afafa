// run: --unwind 1 | --unwind 2 | FAILED
// a = 51 gives r = 102 and the error exit.
#include "prelude.h"
int f(int a) {
  int r = 0;
  if (a < 0)
    goto fail;
  r = a * 2;
  if (r > 100)
    goto fail;
  return r;
fail:
  return -1;
}
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assume(a > 0 && a < 1000);
  assert(f(a) != -1);
  return 0;
}
