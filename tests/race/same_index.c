// expect: race buf
/* Both threads write an array element picked at run time: a race when
   they pick the same one. */
#include "../oracle/prelude.h"
int buf[3];
void *t(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i < 3);
  buf[i] = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  buf[2] = 2;
  pthread_join(h, 0);
  return 0;
}
