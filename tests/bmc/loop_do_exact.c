// run: --unwind 3 | --unwind 3 | FAILED
// run: --unwind 2 | --unwind 2 | SUCCESSFUL
// A do-while body of exactly 3 runs (CBMC's --unwind counts do-while bodies as seqc does).
#include "prelude.h"
int main(void) {
  int i = 0, c = 0;
  do {
    c++;
    i++;
  } while (i < 3);
  assert(c != 3);
  return 0;
}
