// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// run: --unwind 1 --data-model ILP32 | --unwind 2 --32 | FAILED
// LP64: long holds every unsigned int, so -1L < 1u. ILP32: both convert to unsigned long and the comparison fails.
#include "prelude.h"
int main(void) {
  long l = -1;
  unsigned int u = 1;
  assert(l < u);
  return 0;
}
