// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A variable-length array's size is evaluated once, side effects and all
// (C11 6.7.6.2p5); it was refused as "expected a constant expression"
// (exit 1).
#include "prelude.h"
int main(void) {
  int k = 3;
  int a[k++];
  a[0] = 1;
  assert(k == 4 && sizeof(a) == 3 * sizeof(int));
  return a[0] - 1;
}
