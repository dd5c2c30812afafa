// expect: found 18
// property: memsafety
// The worker frees the node; main reads it after creating the worker,
// so if the worker runs first, main reads freed memory.
#include <pthread.h>
#include <stdlib.h>
struct node { int val; int next; };
struct node *n;
void *worker(void *arg) {
  free(n);
  return 0;
}
int main(void) {
  n = malloc(sizeof(struct node));
  n->val = 1;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int v = n->val;
  pthread_join(t, 0);
  return v;
}
