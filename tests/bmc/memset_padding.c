// run: --unwind 1 | --unwind 2 | FAILED
// memset writes a struct's padding bytes too, and a character pointer
// may read them (the SMT route once read 0 there: a false SUCCESSFUL).
#include "prelude.h"
struct S { char c; int i; };
int main(void) {
  struct S st;
  memset(&st, 0xAB, sizeof st);
  unsigned char *p = (unsigned char *)&st;
  assert(p[0] == 0xAB && p[4] == 0xAB);
  assert(p[1] != 0xAB);
  return 0;
}
