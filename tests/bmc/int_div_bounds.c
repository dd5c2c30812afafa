// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// For positive operands the quotient is at most the dividend. (On full
// 32-bit operands z3 and cvc5 take minutes on this; bitwuzla a second.)
#include "prelude.h"
int main(void) {
  unsigned char a = __VERIFIER_nondet_int();
  unsigned char b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a > 0 && b > 0);
  assert(a / b <= a);
  assert(a % b < b);
  return 0;
}
