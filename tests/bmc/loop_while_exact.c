// run: --unwind 3 | --unwind 4 | FAILED
// run: --unwind 2 | --unwind 3 | SUCCESSFUL
// A while loop of exactly 3 iterations.
#include "prelude.h"
int main(void) {
  int i = 0, c = 0;
  while (i < 3) {
    c += 2;
    i++;
  }
  assert(c != 6);
  return 0;
}
