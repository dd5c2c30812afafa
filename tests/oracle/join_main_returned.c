// expect: successful
/* main's return is exit: the program ends there, so a thread's join of
   main never returns and the assertion after it is unreachable (only
   pthread_exit in main lets a join of main return:
   pthread_exit_main.c). The thread may run its join before or after
   main's return; it blocks either way. */
#include "prelude.h"
pthread_t mainid;
int x;
void *f(void *a) {
  void *v = 0;
  pthread_join(mainid, &v);
  assert(x == 0);
  return 0;
}
int main(void) {
  pthread_t t;
  mainid = pthread_self();
  pthread_create(&t, 0, f, 0);
  x = 1;
  return 3;
}
