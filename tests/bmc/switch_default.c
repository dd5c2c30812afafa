// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Returns from inside a switch; default falls to the code after it.
#include "prelude.h"
int classify(int x) {
  switch (x) {
  case 0: return 0;
  case 1:
  case 2: return 1;
  default: break;
  }
  return x < 0 ? -1 : 2;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int c = classify(x);
  assert(c >= -1 && c <= 2);
  assert(c != 1 || x == 1 || x == 2);
  return 0;
}
