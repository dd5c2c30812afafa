// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Anonymous struct and union members, initialised by position and by
// designator and reached through a pointer. The C output printed each as
// a tagged type with no member name, which declares no member at all:
// CBMC rejected the initialiser (UNKNOWN on every CBMC route).
#include "prelude.h"
struct V {
  int a;
  union { int b; short f; };
  struct { char x, y; };
  int c;
} v = { 1, { 2 }, { 'p', 'q' }, 3 };
int main(void) {
  struct V *p = &v;
  p->b = p->b + 5;
  assert(v.a == 1 && v.b == 7 && v.x == 'p' && v.y == 'q' && v.c == 3);
  return 0;
}
