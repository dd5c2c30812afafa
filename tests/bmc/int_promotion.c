// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Narrow operands promote to int before arithmetic; stores truncate.
#include "prelude.h"
int main(void) {
  unsigned char a = 200, b = 100;
  int c = a + b;
  assert(c == 300);
  unsigned char d = a + b;
  assert(d == 44);
  short s = -1;
  unsigned short us = s;
  assert(us == 65535);
  assert(us + 1 == 65536);
  return 0;
}
