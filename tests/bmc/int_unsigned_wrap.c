// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Unsigned arithmetic wraps modulo 2^N.
#include "prelude.h"
int main(void) {
  unsigned int u = 0;
  u = u - 1;
  assert(u == 4294967295u);
  unsigned char c = 255;
  c = c + 1;
  assert(c == 0);
  return 0;
}
