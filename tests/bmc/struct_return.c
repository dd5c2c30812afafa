// run: --unwind 1 | --unwind 2 | FAILED
// A struct returned by value; v = 500 makes the second assertion fail.
#include "prelude.h"
struct P { int x; int y; };
struct P make(int v) {
  struct P p;
  p.x = v;
  p.y = v * 2;
  return p;
}
int main(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v > 0 && v < 1000);
  struct P p = make(v);
  assert(p.y == p.x * 2);
  assert(p.x != 500);
  return 0;
}
