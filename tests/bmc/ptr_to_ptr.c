// run: --unwind 1 | --unwind 2 | FAILED
// After *pp = &y the second write goes to y, so x stays 7.
#include "prelude.h"
int main(void) {
  int x = 1, y = 2;
  int *p = &x;
  int **pp = &p;
  **pp = 7;
  assert(x == 7);
  *pp = &y;
  **pp = 9;
  assert(x == 9);
  return 0;
}
