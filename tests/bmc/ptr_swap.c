// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Swap through pointers, including swapping a variable with itself.
#include "prelude.h"
void swap(int *x, int *y) {
  int t = *x;
  *x = *y;
  *y = t;
}
int main(void) {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  int a0 = a, b0 = b;
  swap(&a, &b);
  assert(a == b0 && b == a0);
  swap(&a, &a);
  assert(a == b0);
  return 0;
}
