// expect: successful
/* A struct's bytes through a char pointer: the worker writes byte 4
   (the first byte of the short b) and byte 0 (the low byte of the int
   a) in that order, each one step. Main reads a in any interleaving
   and sees 0 or 1; after the join, b is 7 and a is 1. A model that
   kept the struct's fields apart from its bytes would read 0 after
   the join and fail. */
#include "prelude.h"
struct S { int a; short b; } s;
void *worker(void *arg) {
  unsigned char *c = (unsigned char *)&s;
  c[4] = 7;
  c[0] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int a = s.a;
  assert(a == 0 || a == 1);
  pthread_join(t, 0);
  assert(s.b == 7);
  assert(s.a == 1);
  return 0;
}
