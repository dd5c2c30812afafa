// run: --unwind 3 | --unwind 3 | FAILED
// run: --unwind 2 | --unwind 2 | SUCCESSFUL
// A loop made by a backward goto whose body runs 3 times.
#include "prelude.h"
int main(void) {
  int i = 0;
again:
  i++;
  if (i < 3)
    goto again;
  assert(i != 3);
  return 0;
}
