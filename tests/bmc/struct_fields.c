// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Fields written through a pointer to the struct.
#include "prelude.h"
struct S { int a; char c; long b; };
int main(void) {
  struct S s;
  s.a = 1;
  struct S *q = &s;
  q->b = 2;
  q->c = 'x';
  assert(s.a + s.b == 3);
  assert(s.c == 'x');
  return 0;
}
