// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A constant product of two unsigned long long operands wraps modulo
// 2^64 (its exact value passes 2^127): the folder gave up, and the oracle
// refused the initialiser as one "that reads memory".
#include "prelude.h"
long g = (0xffffffffffffffffull * -1) ? 1 : 0;
unsigned long long h = 0xffffffffffffffffull * 0xffffffffffffffffull;
int main(void) {
  assert(g == 1 && h == 1);
  return 0;
}
