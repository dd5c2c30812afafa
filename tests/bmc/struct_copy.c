// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Struct assignment copies every field.
#include "prelude.h"
struct P { int x; int y; };
int main(void) {
  struct P a = {1, 2};
  struct P b = a;
  b.x = 5;
  assert(a.x == 1 && b.y == 2 && b.x == 5);
  a = b;
  assert(a.x == 5);
  return 0;
}
