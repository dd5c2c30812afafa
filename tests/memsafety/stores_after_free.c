// expect: found 17 19
// property: memsafety
// A worker frees the list head while main stores a call's result into
// it and, in an atomic section, links a new node from it: either store
// may come after the free.
#include <pthread.h>
#include <stdlib.h>
struct node { struct node *next; int v; };
struct node *head;
int three(void) { return 3; }
void *worker(void *arg) { struct node *q = head; free(q); return 0; }
int main(void) {
  head = malloc(sizeof(struct node));
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  struct node *q = head;
  q->v = three();
  __VERIFIER_atomic_begin();
  q->next = malloc(sizeof(struct node));
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  return 0;
}
