// run: --unwind 3 | --unwind 4 | FAILED
// An array decays to a pointer; the callee's writes are the caller's array.
#include "prelude.h"
void fill(int *a, int n, int v) {
  for (int i = 0; i < n; i++)
    a[i] = v + i;
}
int main(void) {
  int b[3];
  fill(b, 3, 10);
  assert(b[0] == 10 && b[2] == 12);
  assert(b[1] != 11);
  return 0;
}
