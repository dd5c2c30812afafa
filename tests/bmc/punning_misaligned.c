// run: --unwind 1 | --unwind 2 | FAILED
// An int read through char-pointer arithmetic, off the array's int
// boundaries: little-endian, it takes the upper half of a[0] and the
// lower half of a[1]. Arrays of whole ints would read a cell nobody
// wrote (once a false bug: a read of 0). The second assertion fails.
#include "prelude.h"
int a[2];
int main(void) {
  a[0] = 0x11111111;
  a[1] = 0x22222222;
  int *p = (int *)((char *)a + 2);
  int v = *p;
  assert(v == 0x22221111);
  assert(v != 0x22221111);
  return 0;
}
