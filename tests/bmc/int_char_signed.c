// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Plain char is signed on x86; conversions to it wrap.
#include "prelude.h"
int main(void) {
  char c = 200;
  assert(c < 0);
  signed char sc = -128;
  sc = sc - 1;
  assert(sc == 127);
  return 0;
}
