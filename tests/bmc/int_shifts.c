// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Right shift of a negative int is arithmetic (gcc); a promoted char shifts as int.
#include "prelude.h"
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x == -8);
  assert((x >> 1) == -4);
  unsigned int y = 0x80000000u;
  assert((y >> 31) == 1);
  assert((1u << 31) == 2147483648u);
  unsigned char c = 1;
  assert((c << 8) == 256);
  return 0;
}
