// run: --unwind 1 | --unwind 2 | FAILED
// The twin of neg_neg.c: -(-u) is u (the C route said SUCCESSFUL).
#include "prelude.h"
unsigned u = 5;
int main(void) {
  unsigned v = -(-u);
  assert(v != 5);
  return 0;
}
