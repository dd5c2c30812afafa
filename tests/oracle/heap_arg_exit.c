// expect: failed 24 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* A heap struct passed as the thread argument, and pthread_exit's value
   read by the join. The worker adds to s->a through the pointer and exits
   with 5; main checks both after the join. The failure: s->a is 1 after
   the worker's increment, so the assertion s->a == 0 fails. Round 1: main
   creates; the worker runs; round 2: main joins and fails. Switches 2. */
#include "prelude.h"
struct S { int a; int b; };
void *worker(void *arg) {
  struct S *s = arg;
  s->a++;
  pthread_exit((void *)5);
  return 0;
}
int main(void) {
  struct S *s = malloc(sizeof(struct S));
  s->a = 0;
  s->b = 0;
  pthread_t t;
  void *r;
  pthread_create(&t, 0, worker, s);
  pthread_join(t, &r);
  assert((long)r == 5);
  assert(s->a == 0);
  return 0;
}
