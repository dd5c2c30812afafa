// run: --unwind 4 | --unwind 5 | SUCCESSFUL
// run: --unwind 3 | --unwind 4 | SUCCESSFUL
// Loops of exactly 4 iterations. With --unwind 3 every path is cut before the assertion.
#include "prelude.h"
int main(void) {
  int a[4];
  int sum = 0;
  for (int i = 0; i < 4; i++)
    a[i] = i;
  for (int i = 0; i < 4; i++)
    sum += a[i];
  assert(sum == 6);
  return 0;
}
