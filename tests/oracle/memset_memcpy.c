// expect: failed 22 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* memcpy and memset on shared structs, each one step. The worker copies
   h into g; main clears h with memset, then reads g.b[1]. The failure:
   main reads 3, so the worker's copy ran after main's create and before
   main's memset (after it, h is all zero). Round 1: main creates; the
   worker copies; round 2: main clears h, reads g.b[1] = 3 and fails. */
#include "prelude.h"
void *memset(void *, int, unsigned long);
void *memcpy(void *, const void *, unsigned long);
struct S { int a; int b[2]; };
struct S g;
struct S h = { 1, { 2, 3 } };
void *worker(void *arg) {
  memcpy(&g, &h, sizeof g);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  memset(&h, 0, sizeof h);
  int x = g.b[1];
  assert(x != 3);
  pthread_join(t, 0);
  assert(g.a == 0 || g.a == 1);
  return 0;
}
