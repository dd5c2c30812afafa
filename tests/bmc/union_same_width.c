// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Union members of one width share their bits.
#include "prelude.h"
union U { int i; unsigned int u; };
int main(void) {
  union U x;
  x.i = -1;
  assert(x.u == 4294967295u);
  return 0;
}
