// expect: failed 15 rounds=1 switches=2
/* a sets x and then spins forever; the unwinding bound cuts a's loop,
   which must stop a only: b still reads x == 1 and fails (DESIGN.md §3
   rule 4). Round 1: main creates a and b, a writes x, b reads it.
   Switches: main -> a -> b = 2. */
#include "prelude.h"
int x;
void *a_fn(void *arg) {
  x = 1;
  while (1) {
  }
  return 0;
}
void *b_fn(void *arg) {
  assert(x != 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, a_fn, 0);
  pthread_create(&b, 0, b_fn, 0);
  return 0;
}
