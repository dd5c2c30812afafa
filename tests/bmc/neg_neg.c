// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A negation of a negation keeps the two signs apart in the C output:
// -(-u) was printed --u, a decrement (a missed bug in neg_neg_bad.c, exit 3
// here), and -(-1.5f) as --1.5f, which CBMC rejects.
#include "prelude.h"
unsigned u = 5;
double d = 2.5;
int main(void) {
  unsigned v = -(-u);
  double e = -(-d);
  float f = -(-1.5f);
  assert(v == 5 && u == 5 && e == 2.5 && f == 1.5f);
  return 0;
}
