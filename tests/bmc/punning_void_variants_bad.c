// run: --unwind 1 | --unwind 2 | FAILED
// The twin of punning_void_variants.c: the store through the int pointer
// reaches the struct's first member, so the assertion fails (the SMT
// route said SUCCESSFUL, also in the default portfolio).
#include "prelude.h"
struct s { int f; int g; } S;
int main(void) {
  void *v = &S;
  int *q = v;
  *q = 5;
  assert(S.f != 5);
  return 0;
}
