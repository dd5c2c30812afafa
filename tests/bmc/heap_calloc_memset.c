// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// calloc zeroes; memset and memcpy of whole objects.
#include "prelude.h"
struct S { int a; long b; };
int main(void) {
  int *p = calloc(4, sizeof(int));
  assert(p[3] == 0);
  struct S s;
  s.a = 5;
  memset(&s, 0, sizeof s);
  assert(s.a == 0 && s.b == 0);
  int q[3] = {1, 2, 3};
  memcpy(p, q, sizeof q);
  assert(p[2] == 3 && p[3] == 0);
  return 0;
}
