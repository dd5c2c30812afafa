// run: --unwind 3 | --unwind 4 | FAILED
// run: --unwind 2 | --unwind 3 | SUCCESSFUL
// A for loop of exactly 3 iterations: found with --unwind 3, cut with --unwind 2 (CBMC counts one more).
#include "prelude.h"
int main(void) {
  int c = 0;
  for (int i = 0; i < 3; i++)
    c++;
  assert(c != 3);
  return 0;
}
