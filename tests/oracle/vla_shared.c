// expect: failed 25 rounds=1 switches=2 (main's final context is free)
/* A variable-length array of main's (n elements, n from 1 to 3; sizeof
   gives its run-time size) handed to a worker by its address. The worker
   sets the last element to the first plus one; main reads the last
   element before the join. The failure: main reads 2, which needs the
   worker to run between main's create and main's read. Round 1: main
   creates; the worker writes; main's final context reads and fails. */
#include "prelude.h"
int n;
void *worker(void *arg) {
  int *a = arg;
  a[n - 1] = a[0] + 1;
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 3);
  int a[n];
  assert(sizeof a == n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = 1;
  pthread_t t;
  pthread_create(&t, 0, worker, a);
  int v = a[n - 1];
  assert(v != 2);
  pthread_join(t, 0);
  return 0;
}
