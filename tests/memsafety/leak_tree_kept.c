// expect: none
// property: memtrack
// lal-reps via cbmc: slow
// A node with two children, each filled in by its own thread under a
// lock, and a payload array inside each node indexed by a counter.
// Every node is reachable from the root: no leak.
#include <pthread.h>
#include <stdlib.h>

struct tree { struct tree *left, *right; int vals[2]; };
struct tree *root;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *grow(void *arg) {
  struct tree *t = malloc(sizeof *t);
  t->left = 0;
  t->right = 0;
  t->vals[0] = 1;
  pthread_mutex_lock(&m);
  if (arg)
    root->left = t;
  else
    root->right = t;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  root = calloc(1, sizeof *root);
  pthread_create(&a, 0, grow, (void *)1);
  pthread_create(&b, 0, grow, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
