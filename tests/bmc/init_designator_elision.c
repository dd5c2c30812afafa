// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A designator that names an aggregate, followed by a scalar: brace
// elision fills the aggregate from there (C11 6.7.9p20). seqc refused it
// ("an aggregate needs a braced initializer"); gcc accepts it.
#include "prelude.h"
struct In { int a, b; };
struct Out { int x; struct In in[2]; int y; } o2 = { .in[0] = 7, 8, 9 };
int a[2][2] = { [0] = 1, 2, 3 };
struct In one = { 1, 2 };
char cs[2][4] = { [0] = "xy", "z" };
struct W { char t[4]; int k; } w = { .t = "ab", 4 };
int main(void) {
  struct Out o3 = { .in[1] = one, 5 };
  assert(o2.in[0].a == 7 && o2.in[0].b == 8 && o2.in[1].a == 9 && o2.in[1].b == 0 && o2.y == 0);
  assert(a[0][0] == 1 && a[0][1] == 2 && a[1][0] == 3 && a[1][1] == 0);
  assert(o3.in[1].a == 1 && o3.in[1].b == 2 && o3.y == 5);
  assert(cs[0][0] == 'x' && cs[1][0] == 'z');
  assert(w.t[1] == 'b' && w.k == 4);
  return 0;
}
