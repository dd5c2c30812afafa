// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Values without braces that fill a member an earlier designator gave a
// part of keep that part: `.p[1].y = 5, .p[0].x = 1, 2, 3` gives p[1]
// {3, 5} (gcc and CBMC agree). The front end started p[1] afresh, so
// p[1].y was 0: a false bug. A braced value replaces the whole member.
#include "prelude.h"
struct P { int x, y; };
struct Q { struct P p[2]; int z; };
struct S { char c[4]; int k; };
struct Q a = { .p[1].y = 5, .p[0].x = 1, 2, 3 };
struct Q b = { .p[1] = {7, 8}, .p[0].x = 1, 2, 3 };
struct Q c = { .p[1].y = 5, .p[0].x = 1, 2, {3} };
struct Q d = { .p[1].y = 5, .z = 9, .p[0] = {1, 2}, 3 };
struct S f = { .c[2] = 'z', .k = 1, .c = "ab" };
struct S g = { .c[2] = 'z', .c[0] = 'a', 'b', 'c', 'd', 5 };
int arr[2][2] = { [1][1] = 4, [0][0] = 1, 2, 3 };
int main(void) {
  struct Q l = { .p[1].y = 6, .p[0].x = 1, 2, 4 };
  assert(a.p[0].x == 1 && a.p[0].y == 2 && a.p[1].x == 3 && a.p[1].y == 5);
  assert(b.p[1].x == 3 && b.p[1].y == 8);
  assert(c.p[1].x == 3 && c.p[1].y == 0);
  assert(d.p[1].x == 3 && d.p[1].y == 5 && d.z == 9);
  assert(f.c[0] == 'a' && f.c[1] == 'b' && f.c[2] == 0 && f.k == 1);
  assert(g.c[2] == 'c' && g.c[3] == 'd' && g.k == 5);
  assert(arr[0][1] == 2 && arr[1][0] == 3 && arr[1][1] == 4);
  assert(l.p[1].x == 4 && l.p[1].y == 6);
  return 0;
}
