// expect: successful
/* exit ends every thread. Main sets x and exits inside one atomic
   section, so no other thread runs between the two: the worker reads x
   before main's section or never runs again, and never sees x == 1. A
   model where exit stops only the calling thread reports a false bug. */
#include "prelude.h"
int x;
void *worker(void *arg) {
  assert(x == 0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __VERIFIER_atomic_begin();
  x = 1;
  exit(0);
  __VERIFIER_atomic_end();
  return 0;
}
