// run: --unwind 13 | --unwind 13 | SUCCESSFUL
// The twin of memset_padding.c: every byte, padding included, is set.
#include "prelude.h"
struct S { char c; int i; short s; };
int main(void) {
  struct S st;
  memset(&st, 0x5A, sizeof st);
  unsigned char *p = (unsigned char *)&st;
  for (int k = 0; k < 12; k++)
    assert(p[k] == 0x5A);
  return 0;
}
