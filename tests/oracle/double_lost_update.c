// expect: failed 24 rounds=2 switches=4 (main's round 3 below is its final context: free)
/* The lost update on a double (issue 29): two threads add 0.5 to a
   shared double through a local. The sums are exact (0.5 and 1.0 are
   doubles), so the assertion fails only when an update is lost: a reads
   total, b reads and writes, a writes. Rounds and switches as in
   lost_update.c: a needs rounds 1 and 2 around b, main asserts in its
   final context; main -> a -> b -> a -> main = 4 switches. */
#include "prelude.h"
double total = 0.0;
void *add(void *arg) {
  double t = total;
  total = t + 0.5;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  /* 0.1f is the float nearest 0.1, not the double: they differ; the
     float sum of ten tenths is not 1. */
  assert(0.1f != 0.1 && (double)0.1f > 0.1);
  assert(total == 1.0);
  return 0;
}
