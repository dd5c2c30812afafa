// expect: found 34
// property: memtrack
// Two threads push a node onto a shared list without a lock: if both
// read the head before either writes it, the first node written is
// overwritten. main frees the list it can reach and returns with that
// node unreachable. Nodes hold pointers, so the check sees only leaks
// where no global reaches any live node (it does here: the list is
// freed), and a safe answer would be unknown.
#include <pthread.h>
#include <stdlib.h>

struct node { struct node *next; int v; };
struct node *head;

void *push(void *arg) {
  struct node *n = malloc(sizeof *n);
  n->v = 1;
  n->next = head;
  head = n;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, push, 0);
  pthread_create(&b, 0, push, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (head) {
    struct node *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
