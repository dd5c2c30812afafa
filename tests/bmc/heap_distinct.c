// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Allocations are fresh, disjoint and non-null (--no-malloc-may-fail).
#include "prelude.h"
int main(void) {
  int *a = malloc(sizeof(int));
  int *b = malloc(sizeof(int));
  assert(a != 0 && b != 0 && a != b);
  *a = 1;
  *b = 2;
  assert(*a == 1);
  return 0;
}
