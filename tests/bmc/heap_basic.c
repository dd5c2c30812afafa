// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A heap array.
#include "prelude.h"
int main(void) {
  int *p = malloc(sizeof(int) * 3);
  p[0] = 1;
  p[2] = 3;
  assert(p[0] + p[2] == 4);
  free(p);
  return 0;
}
