// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Calls through function pointers stored in a struct.
#include "prelude.h"
struct ops { int (*f)(int); int (*g)(int); };
int twice(int x) { return 2 * x; }
int inc(int x) { return x + 1; }
int main(void) {
  struct ops o = { twice, inc };
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > -1000 && x < 1000);
  assert(o.g(o.f(x)) == 2 * x + 1);
  return 0;
}
