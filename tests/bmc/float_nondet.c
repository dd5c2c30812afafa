// run: --unwind 1 | --unwind 2 | FAILED
// A nondeterministic double may be any bit pattern, a NaN among them:
// the counterexample's value is replayed on the oracle by its bits (the
// oracle once read them as a number, and every such report ended in
// exit 3). 0.1f is not 0.1: the float draw must keep its own rounding.
#include "prelude.h"
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
int main(void) {
  float f = __VERIFIER_nondet_float();
  __VERIFIER_assume(f == 0.1f);
  double d = __VERIFIER_nondet_double();
  assert(d == d);
  return 0;
}
