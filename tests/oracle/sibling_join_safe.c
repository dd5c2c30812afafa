// expect: successful
/* As sibling_join.c, but main writes x before creating a: the join
   reads a's real return value, 1, in every interleaving. */
#include "prelude.h"
int x;
pthread_t ta, tb;
void *a_fn(void *arg) {
  return (void *)(long)x;
}
void *b_fn(void *arg) {
  void *r;
  pthread_join(ta, &r);
  assert((long)r == 1);
  return 0;
}
int main(void) {
  x = 1;
  pthread_create(&ta, 0, a_fn, 0);
  pthread_create(&tb, 0, b_fn, 0);
  pthread_join(tb, 0);
  return 0;
}
