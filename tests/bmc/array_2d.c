// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Rows are laid out one after the other.
#include "prelude.h"
int m[2][3];
int main(void) {
  m[1][2] = 5;
  m[0][1] = 3;
  int *flat = &m[0][0];
  assert(flat[5] == 5 && flat[1] == 3 && m[1][0] == 0);
  return 0;
}
