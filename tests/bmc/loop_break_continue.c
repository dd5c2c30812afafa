// run: --unwind 6 | --unwind 6 | FAILED
// run: --unwind 5 | --unwind 5 | SUCCESSFUL
// The loop leaves by break in its sixth body run (i = 5) after adding 1 and 3, so
// it needs --unwind 6. A loop left by break takes one back edge fewer than one
// left by its test, so here CBMC's --unwind is the same number as seqc's.
#include "prelude.h"
int main(void) {
  int s = 0;
  for (int i = 0; i < 100; i++) {
    if (i % 2 == 0)
      continue;
    if (i > 4)
      break;
    s += i;
  }
  assert(s != 4);
  return 0;
}
