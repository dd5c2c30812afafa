// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Globals start from their initialisers, zero elsewhere; an initialiser may take an address.
#include "prelude.h"
int g[5] = {1, 2};
struct { int a; int *p; } s = {3, &g[1]};
int z;
int main(void) {
  assert(g[1] == 2 && g[4] == 0 && z == 0);
  assert(*s.p == 2 && s.a == 3);
  return 0;
}
