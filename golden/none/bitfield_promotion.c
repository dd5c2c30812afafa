// seqc: --method none
/* A bit-field narrower than int is read as an int (C11 6.3.1.1p2): u - 1
   is -1 where u is 0, while a 32-bit unsigned field stays unsigned. */
#include <assert.h>
struct S { unsigned u : 31; unsigned w : 32; int i : 3; } s;
int main(void) {
  s.u = 0;
  s.w = 0;
  assert(s.u - 1 < 0);
  assert(s.w - 1 > 0);
  s.i = 3;
  s.i++;
  assert(s.i == -4);
  return 0;
}
