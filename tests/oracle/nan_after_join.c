// expect: failed 18 rounds=1 switches=2
/* A NaN crosses a round's end: the worker divides 0.0 by 0.0, main
   joins it and asserts g == g, false for a NaN on every run. The C
   route once compared a round's last copy with the next round's guess
   by `==`, which no NaN passes, so CBMC cut every run and said SAFE.
   Round 1: main creates the worker and switches to it; it stores NaN
   and returns; main joins and fails in its final context (free). */
#include "prelude.h"
double g = 0.0;
void *worker(void *arg) {
  g = g / 0.0;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(g == g);
  return 0;
}
