// run: --unwind 2 | --unwind 3 | FAILED
// Nested loops: (0+0)+(0+1)+(1+0)+(1+1) = 4.
#include "prelude.h"
int main(void) {
  int n = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      n += i + j;
  assert(n != 4);
  return 0;
}
