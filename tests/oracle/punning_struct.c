// expect: failed 29 rounds=1 switches=2
/* A struct reached through a pointer to another struct type: the
   worker sees main's struct A as a struct B, whose short w lies over
   the upper half of A's y (little-endian: bytes 6 and 7, worth 65536
   each unit) and whose u lies over A's x. It stores u = 5 first, so
   a y of 65536 means x is 5 already. Round 1: main creates the worker
   and switches to it; it stores u = 5 and w = 1 and switches back; main reads y = 65536 (and x = 5) and fails on the last
   assertion (main's round 2 is its final context: free). Had main
   read before the worker ran, y would be 0. */
#include "prelude.h"
struct A { int x; int y; };
struct B { int u; short v; short w; };
struct A *sa;
void *worker(void *arg) {
  struct B *b = (struct B *)sa;
  b->u = 5;
  b->w = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  sa = malloc(sizeof(struct A));
  sa->x = 0;
  sa->y = 0;
  pthread_create(&t, 0, worker, 0);
  int y = sa->y;
  assert(y == 0 || y == 65536);
  assert(y == 0 || sa->x == 5);
  assert(y != 65536);
  return 0;
}
