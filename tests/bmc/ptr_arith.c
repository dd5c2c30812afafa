// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Pointer arithmetic scales by the element size; differences count elements.
#include "prelude.h"
int main(void) {
  int arr[4] = {1, 2, 3, 4};
  int *p = arr + 1;
  p++;
  assert(*p == 3);
  assert(p - arr == 2);
  assert(*(p - 2) == 1);
  long long ll[2];
  long long *q = ll;
  assert((char *)(q + 1) - (char *)q == 8);
  return 0;
}
