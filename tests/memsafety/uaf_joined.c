// expect: none
// property: memsafety
// The twin of uaf_thread: main joins the worker, which reads the node,
// before it frees the node.
#include <pthread.h>
#include <stdlib.h>
struct node { int val; int next; };
struct node *n;
int seen;
void *worker(void *arg) {
  seen = n->val;
  return 0;
}
int main(void) {
  n = malloc(sizeof(struct node));
  n->val = 1;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(n);
  n = 0;
  return seen;
}
