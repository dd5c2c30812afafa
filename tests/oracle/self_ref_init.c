// expect: successful
/* A global named in its own initialiser (C puts the name in scope at the
   end of its declarator), as Linux's list heads and mutexes do: the list
   is empty when it points at itself. A worker checks it, and so does a
   block-scope static initialised from the global's address. */
#include "prelude.h"
struct list { struct list *next, *prev; };
struct kmutex { int count; struct list wait_list; };
static struct kmutex km = { 1, { &km.wait_list, &km.wait_list } };
struct node { struct node *self; int v; } n0 = { &n0, 5 };
void *worker(void *arg) {
  static struct list *head = &km.wait_list;
  assert(head->next == head && head->prev == &km.wait_list);
  assert(n0.self->v == 5);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(km.count == 1);
  return 0;
}
