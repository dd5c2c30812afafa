// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// A nested struct with an array, written through a pointer to the inner struct.
#include "prelude.h"
struct In { int v[3]; int k; };
struct Out { int tag; struct In in; };
void set(struct In *p, int i, int val) { p->v[i] = val; }
int main(void) {
  struct Out o = {0};
  set(&o.in, 2, 42);
  o.in.k = 7;
  assert(o.in.v[2] == 42 && o.in.v[0] == 0 && o.in.k == 7 && o.tag == 0);
  return 0;
}
