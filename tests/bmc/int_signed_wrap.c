// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Signed overflow wraps (two's complement), as DESIGN.md pins it.
#include "prelude.h"
int main(void) {
  int x = 2147483647;
  x = x + 1;
  assert(x < 0);
  assert(x == -2147483647 - 1);
  return 0;
}
