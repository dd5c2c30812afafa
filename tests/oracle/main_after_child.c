// expect: failed 14 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* main creates a, a writes x, main then reads it: main's read must come
   after a's write, and main runs first in every round, so 2 rounds;
   switches main -> a -> main = 2. */
#include "prelude.h"
int x;
void *a_fn(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, a_fn, 0);
  assert(x == 0);
  return 0;
}
