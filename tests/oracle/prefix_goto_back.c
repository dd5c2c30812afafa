// expect: failed 18 rounds=1 switches=2
/* A label ends main's sequential prefix (ir::prefix): the goto below
   runs `x = 1; assert` again once the thread exists, and the thread's
   write can come between them. Were the statements after the label
   taken for the prefix, they would have no switch point and the bug
   would be hidden. */
#include "prelude.h"
int x;
void *writer(void *arg) {
  x = 5;
  return 0;
}
int main(void) {
  pthread_t t;
  int n = 0;
again:
  x = 1;
  assert(x == 1);
  if (n++ == 0) {
    pthread_create(&t, 0, writer, 0);
    goto again;
  }
  return 0;
}
