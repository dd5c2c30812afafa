// expect: failed 21 rounds=1 switches=0
/* A thread created detached cannot be joined: glibc's pthread_join
   returns EINVAL at once without waiting (POSIX leaves it undefined), so
   main reaches its last assertion before the worker has run in the run
   where main goes first: 1 round, no switch. The EINVAL assertion holds
   in every run. */
#include "prelude.h"
int x;
void *worker(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  pthread_create(&t, &a, worker, 0);
  int r = pthread_join(t, 0);
  assert(r == EINVAL);
  assert(x == 1);
  return 0;
}
