// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A conditional as an operand of || or && keeps its parentheses in the C
// output: (k ? 2 : 0) || 0 was printed k ? 2 : 0 || 0, which is 2, so
// CBMC judged another program (exit 3 here, a missed bug in the twin).
#include "prelude.h"
int c = 1;
int main(void) {
  int k = c;
  int r = (k ? 2 : 0) || 0;
  int q = 0 || (k ? 2 : 0);
  int s = (k ? 4 : 0) && 1;
  int t = k ? 0 : 1 || 5;
  assert(r == 1 && q == 1 && s == 1 && t == 0);
  return 0;
}
