// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Signed division truncates toward zero; the remainder takes the dividend's sign.
#include "prelude.h"
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a == -7 && b == 2);
  assert(a / b == -3);
  assert(a % b == -1);
  assert(7 % -2 == 1);
  assert((-a) / (-b) == -3);
  return 0;
}
