// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Designators that name two parts of one union member initialise both
// (C11 6.7.9p19: a later initialiser overrides only the same subobject);
// naming another member replaces the first. The front end cleared the
// union at every designator, so `.s.lo = 1, .s.hi = 2` kept only hi: a
// false bug on every route and in the oracle (a reviewer's program).
// A value without braces after a designator (`.s.hi = 2, .s = 1`) fills
// the first scalar of the member and keeps the rest: it started the
// member afresh, for structs too (a second reviewer).
#include "prelude.h"
union U { int i; struct HL { short lo, hi; } s; int a[2]; };
struct W { int k; union U u; };
union U gu = { .s.lo = 1, .s.hi = 2 };
union U ga = { .a[1] = 4, .a[0] = 3 };
struct W gw = { .u.s.lo = 5, .u.s.hi = 6, .k = 7 };
union U gi = { .s.lo = 9, .i = 8 };
union U ge = { .s.hi = 2, .s = 1 };
union U gv = { .a[1] = 4, .a = 3 };
struct S2 { struct HL s; int z; } gs = { .s.hi = 2, .s = 1 };
union U gy = { .s = { .hi = 5 }, .s.lo = 6 };
int main(void) {
  union U lu = { .s.hi = 2, .s.lo = 1 };
  assert(gu.s.lo == 1 && gu.s.hi == 2);
  assert(ga.a[0] == 3 && ga.a[1] == 4);
  assert(gw.u.s.lo == 5 && gw.u.s.hi == 6 && gw.k == 7);
  assert(gi.i == 8);
  assert(lu.s.lo == 1 && lu.s.hi == 2);
  assert(ge.s.lo == 1 && ge.s.hi == 2 && gv.a[0] == 3 && gv.a[1] == 4);
  assert(gs.s.lo == 1 && gs.s.hi == 2 && gy.s.lo == 6 && gy.s.hi == 5);
  return 0;
}
