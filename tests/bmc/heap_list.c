// run: --unwind 3 | --unwind 4 | SUCCESSFUL
// run: --unwind 4 | --unwind 5 | SUCCESSFUL
// A linked list on the heap built and walked by loops of 3 iterations.
#include "prelude.h"
struct node { int v; struct node *next; };
struct node *push(struct node *h, int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = h;
  return n;
}
int main(void) {
  struct node *h = 0;
  for (int i = 1; i <= 3; i++)
    h = push(h, i);
  int sum = 0;
  for (struct node *p = h; p; p = p->next)
    sum += p->v;
  assert(sum == 6);
  return 0;
}
