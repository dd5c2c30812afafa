// expect: found 27
// property: memtrack
// Two nodes point at each other. A thread drops the only global
// pointer to them: each node is still pointed at by the other, but
// neither is reachable from a global, so both leak (a count of
// references would not see it).
#include <pthread.h>
#include <stdlib.h>

struct node { struct node *other; };
struct node *ring;

void *drop(void *arg) {
  ring = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  struct node *x = malloc(sizeof *x);
  struct node *y = malloc(sizeof *y);
  x->other = y;
  y->other = x;
  ring = x;
  pthread_create(&t, 0, drop, 0);
  pthread_join(t, 0);
  return 0;
}
