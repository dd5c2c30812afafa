// expect: found 29
// property: memtrack
// lal-reps via cbmc: slow
// main builds a chain head -> a -> b -> c, then a thread cuts it after
// the first node without freeing the rest: b and c are lost (c only
// through b), when the thread runs before main returns.
#include <pthread.h>
#include <stdlib.h>

struct node { struct node *next; int v; };
struct node *head;

void *cut(void *arg) {
  head->next = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  struct node *c = malloc(sizeof *c);
  c->next = 0;
  struct node *b = malloc(sizeof *b);
  b->next = c;
  struct node *a = malloc(sizeof *a);
  a->next = b;
  head = a;
  pthread_create(&t, 0, cut, 0);
  pthread_join(t, 0);
  return 0;
}
