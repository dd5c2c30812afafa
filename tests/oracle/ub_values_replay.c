// expect: failed 23 rounds=1 switches=2
/* C leaves undefined a floating value converted to an integer type that
   cannot hold it and a division by zero; seqc pins both to any value
   (DESIGN.md §2). A thread converts -1.0 to unsigned and divides by a
   zero global; main checks after the join: the values 2 and 3 fail (both
   are draws, in the oracle's range). Round 1, two switches (main, the
   thread to its end, main's final context). Every route must give the
   draws to the replay: CBMC draws inside seqc's helpers. */
#include "prelude.h"
double d = -1.0;
int z = 0;
unsigned u;
int w;
void *t(void *a) {
  u = (unsigned)d;
  w = 5 / z;
  return 0;
}
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  assert(u != 2 || w != 3);
  return 0;
}
