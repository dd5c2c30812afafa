// expect: successful
/* A creation loop that is not counted (its bound is a variable) is cut by
   the unwinding bound like any loop: the creator stops there, and the
   assertion after the loop is not reached within the bounds. */
#include "prelude.h"
int x;
void *t_fun(void *arg) { return 0; }
int main(void) {
  pthread_t ids[100];
  int n = 100;
  for (int i = 0; i < n; i++)
    pthread_create(&ids[i], 0, t_fun, 0);
  assert(x == 1);
  return 0;
}
