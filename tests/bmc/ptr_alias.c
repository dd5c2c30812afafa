// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A write through a pointer is a write to the object it points to.
#include "prelude.h"
int main(void) {
  int x = 1;
  int *p = &x;
  *p = 5;
  assert(x == 5);
  x = 6;
  assert(*p == 6);
  return 0;
}
