// expect: successful
/* Float constants are the decimal rounded once, to float, in an
   initialiser as in code (the oracle once read an initialiser's 0.1f as
   the double 0.1), and a 64-bit integer converts to float with one
   rounding: 2^60 + 2^36 + 1 is 2^60 + 2^37, where a detour through
   double rounds to 2^60 + 2^36 first and then, a tie, to 2^60.
   7.038531e-26f is a decimal that double rounding gets wrong. */
#include "prelude.h"
float g = 0.1f;
double d = 0.1f;
float h = 7.038531e-26f;
long long big = 1152921573326323713LL;
int main(void) {
  float b = 7.038531e-26f;
  float f = big;
  assert(g == 0.1f);
  assert(d != 0.1);
  assert(h == b);
  assert(f == 1152921642045800448.0f);
  return 0;
}
