// run: --unwind 3 | --unwind 4 | FAILED
// run: --unwind 2 | --unwind 3 | SUCCESSFUL
// The third node from the head holds 1; with --unwind 2 the list is never complete.
#include "prelude.h"
struct node { int v; struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = h;
    h = n;
  }
  assert(h->next->next->v != 1);
  return 0;
}
