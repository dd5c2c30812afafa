// expect: successful
/* An enumeration without negative constants is unsigned int in gcc (C11
   6.7.2.2p4 leaves the type to the implementation), one with a negative
   constant is int, and the constants themselves are int. So e - 1 wraps
   to UINT_MAX where e is A, while A - 1 and f - 1 are -1. seqc once made
   every enumeration int: a false FAILED on the first assertion. The
   worker sets e, main reads it after the join. */
#include "prelude.h"
enum E { A, B };
enum F { M = -1, N };
enum E e = B;
void *worker(void *arg) {
  e = A;
  return 0;
}
int main(void) {
  pthread_t t;
  enum F f = M;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(e - 1 > 0);
  assert(f - 1 < 0 && A - 1 < 0);
  return 0;
}
