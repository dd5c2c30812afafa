// seqc: --method none
/* The value of an assignment to a bit-field is the field's after it (C11
   6.5.16p3): cut to its width, sign-extended for a signed field. */
#include <assert.h>
struct S { unsigned v : 8; int s : 4; } s;
int main(void) {
  int a = (s.s = 7);
  int b = ++s.s;
  int c = (s.s += 1);
  unsigned big = 300;
  int d = (s.v = big);
  assert(a == 7 && b == -8 && c == -7 && d == 44);
  return 0;
}
