// expect: successful
/* Beside the start routine taken through a pointer, another function of
   one parameter has its address taken: h returns an int. A call through a
   pointer dispatches only over functions whose result fits the call (the
   SMT route once merged h's 32-bit result into the start routine's
   pointer, and z3 refused the query). Every assertion holds. */
#include "prelude.h"
int x;
int h(void *a) { return 3; }
int (*hp)(void *) = h;
void *w(void *a) {
  x = 1;
  return 0;
}
void *(*wp)(void *) = w;
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, wp, 0);
  pthread_join(t, 0);
  assert(x == 1 && hp(0) == 3);
  return 0;
}
