#include <assert.h>

extern int __VERIFIER_nondet_int(void);

/* A case label inside a loop (a jump into it): the loop reads only an
   untracked field, but removing it would remove the jump target, and with
   it the path on which the assertion fails. */
struct s {
  int a;
  int b;
} g;

int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = 0;
  g.a = 1;
  switch (n) {
  case 0:
    while (g.b < 3) {
    case 1:
      g.b = g.b + 1;
      k = k + 1;
    }
  }
  assert(n != 1 || k == 0);
  return 0;
}
