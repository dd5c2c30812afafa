// expect: successful
/* A union whose first member is narrower than the union: the worker
   writes all four bytes of u.i, main joins and reads them back. A round
   check of the first member only (one byte) let the next round start
   with any upper bytes, so CBMC reported a violation that no run has. */
#include "prelude.h"
union U { char c; int i; } u;
void *worker(void *arg) {
  u.i = 0x01020304;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(u.i == 0x01020304);
  return 0;
}
