// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A packed struct's int over a union's int, one byte apart: both are
// 32-bit values of one region, at addresses that overlap without being
// equal, so the region holds bytes.
#include "prelude.h"
union U { struct { char c; int i; } __attribute__((packed)) s; int j; } u;
int main(void) {
  u.j = 0x11223344;
  int v = u.s.i;
  assert(v == 0x00112233);
  return 0;
}
