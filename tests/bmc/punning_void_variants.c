// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// An int pointer made from a void * reaches an unsigned object and a
// struct's first member (C11 6.5p7, 6.7.2.1p15). The SMT route kept
// *int apart from both: the stores were lost (a reviewer's v1.c, ff_seq.c).
#include "prelude.h"
struct s { int f; int g; } S;
unsigned U;
void set(void *p, int v) { int *q = p; *q = v; }
int main(void) {
  set(&U, 3);
  set(&S, 5);
  assert(U == 3);
  assert(S.f == 5 && S.g == 0);
  return 0;
}
