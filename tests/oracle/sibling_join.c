// expect: failed 16 rounds=1 switches=2
/* b joins its older sibling a and reads a's return value, which is the x
   a saw. main sets x = 1 after creating both; if a runs before that
   write, it returns 0 and b's assertion fails. Round 1: main creates a
   and b; a reads x = 0 and returns; b joins a and fails. Rounds 1;
   switches main -> a -> b = 2. */
#include "prelude.h"
int x;
pthread_t ta, tb;
void *a_fn(void *arg) {
  return (void *)(long)x;
}
void *b_fn(void *arg) {
  void *r;
  pthread_join(ta, &r);
  assert((long)r == 1);
  return 0;
}
int main(void) {
  pthread_create(&ta, 0, a_fn, 0);
  pthread_create(&tb, 0, b_fn, 0);
  x = 1;
  pthread_join(tb, 0);
  return 0;
}
