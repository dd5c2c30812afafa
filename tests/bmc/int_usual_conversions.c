// run: --unwind 1 | --unwind 2 | FAILED
// -1 < 1u compares as unsigned: 0xffffffff < 1 is false.
#include "prelude.h"
int main(void) {
  int i = -1;
  unsigned int u = 1;
  assert(i < u);
  return 0;
}
