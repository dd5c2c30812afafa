// expect: failed 23 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* A heap array whose size is known only at run time (n ints, n from 1 to
   4, cleared by memset), shared by its pointer. The worker writes 7 into
   the last element; main reads it before the join. The failure: main reads 7, which needs
   the worker to run between main's create and main's read. Round 1: main
   creates; the worker writes; round 2: main reads and fails. */
#include "prelude.h"
void *memset(void *, int, unsigned long);
int *buf;
int n;
void *worker(void *arg) {
  buf[n - 1] = 7;
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 4);
  buf = malloc(n * sizeof(int));
  memset(buf, 0, n * sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int v = buf[n - 1];
  assert(v != 7);
  pthread_join(t, 0);
  return 0;
}
