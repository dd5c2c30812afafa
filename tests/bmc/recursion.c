// run: --unwind 4 | --unwind 3 | FAILED
// run: --unwind 3 | --unwind 2 | SUCCESSFUL
// fact(4) needs 4 active frames of fact; CBMC's --unwind counts recursive
// calls (frames after the first), one fewer.
#include "prelude.h"
int fact(int n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}
int main(void) {
  int r = fact(4);
  assert(r != 24);
  return 0;
}
