// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Designators and brace elision (C11 6.7.9p17, p14): after a nested
// designator the next items go on inside the designated member; a string
// literal may stand in braces. seqc gave 6 to q.c and stored the
// literal's address in s4[0] (false bugs on every route).
#include "prelude.h"
struct A { int a[2]; int b; };
struct Q { int x; struct A in; int c; } q = { .in.a = { 5 }, 6 };
struct Q q2 = { .in.a[1] = 7, 8, 9 };
struct P { int x, y; };
struct R { struct P a; int z; } r = { .a.x = 1, 2 };
struct R r2 = { .a = {1, 2}, .a.x = 5 };
int m[2][3] = { [0][1] = 1, 2 };
int m2[2][3] = { [0][2] = 1, 2, 3 };
char s4[4] = { "ab" };
char s5[] = { "xyz" };
struct W { char t[4]; int k; } w = { { "ab" }, 3 };
struct W w2 = { .t = "ab", .t[0] = 'q' };
struct B { struct A in; } b1 = { .in.a = {5} };
int main(void) {
  struct Q lq = { .in.a = { 5 }, 6 };
  char ls[] = { "ab" };
  assert(q.in.a[0] == 5 && q.in.b == 6 && q.c == 0);
  assert(q2.in.a[1] == 7 && q2.in.b == 8 && q2.c == 9 && q2.x == 0);
  assert(r.a.y == 2 && r.z == 0);
  assert(r2.a.x == 5 && r2.a.y == 2);
  assert(m[0][2] == 2 && m[1][0] == 0);
  assert(m2[0][2] == 1 && m2[1][0] == 2 && m2[1][1] == 3);
  assert(s4[0] == 'a' && s4[1] == 'b' && s4[2] == 0);
  assert(sizeof s5 == 4 && s5[2] == 'z');
  assert(w.t[1] == 'b' && w.k == 3);
  assert(w2.t[0] == 'q' && w2.t[1] == 'b');
  assert(b1.in.a[0] == 5 && b1.in.b == 0);
  assert(lq.in.b == 6 && lq.c == 0);
  assert(sizeof ls == 3 && ls[1] == 'b');
  return 0;
}
