// expect: successful
/* A union filled by values without braces after a designator gave
   another of its members a part: the values go to the first member and
   the other member's part is gone (C11 6.7.9p17-19; gcc agrees, CBMC
   does not: it keeps the older member). seqc kept both parts and wrote
   the older one last, so w.u[1].a read 5: a false bug on every route and
   in the oracle (a reviewer of session 17's designator fix). A part of
   the same member stays (y). */
#include <assert.h>
union U { int a; int b; };
struct W { union U u[2]; } w = { .u[1].b = 5, .u[0].a = 1, 2 };
struct X { union V { struct { int x, y; } s; int i; } v[2]; }
  x = { .v[1] = { .i = 5 }, .v[0].i = 1, 2 };
struct T { union U u; int z; } t = { .u.b = 5, .u = 1 };
struct Y { union V2 { struct { int x, y; } s; int i; } v[2]; }
  y = { .v[1].s.y = 5, .v[0].i = 1, 2 };
int main(void) {
  struct W lw = { .u[1].b = 6, .u[0].a = 1, 3 };
  assert(w.u[1].a == 2);
  assert(x.v[1].i == 2 && x.v[1].s.y == 0);
  assert(t.u.a == 1);
  assert(y.v[1].s.x == 2 && y.v[1].s.y == 5);
  assert(lw.u[1].a == 3);
  return 0;
}
