// run: --unwind 1 | --unwind 2 | FAILED
// The twin of cond_in_logical.c: the value of || is 0 or 1, never 2
// (C11 6.5.14p3). The C route said SUCCESSFUL.
#include "prelude.h"
int c = 1;
int main(void) {
  int k = c;
  int r = (k ? 2 : 0) || 0;
  assert(r == 2);
  return 0;
}
