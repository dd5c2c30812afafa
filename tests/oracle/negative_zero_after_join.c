// expect: successful
/* -0.0 crosses a round's end: the worker stores -0.0f, main joins it
   and checks the sign through 1 / f (minus infinity). `==` holds
   between -0.0 and +0.0, so a round check by `==` let the next round
   start from +0.0: CBMC then reported a violation that no run has. */
#include "prelude.h"
float f = 1.0f;
void *worker(void *arg) {
  f = -0.0f;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(f == 0.0f);
  assert(1.0f / f < 0.0f);
  return 0;
}
