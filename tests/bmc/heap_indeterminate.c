// run: --unwind 1 | --unwind 2 | FAILED
// malloc's memory is indeterminate: p->a and q[1] may both be non-zero.
#include "prelude.h"
struct s { int a; long b; };
int main(void) {
  struct s *p = malloc(sizeof(struct s));
  int *q = (int *)malloc(3 * sizeof(int));
  q[0] = 1;
  assert(p->a == 0 || q[1] == 0);
  int *z = calloc(3, sizeof(int));
  assert(z[1] == 0);
  return 0;
}
