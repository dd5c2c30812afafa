// expect: failed 15 rounds=1 switches=0
/* pthread_once returns 0, also to the caller that runs the routine (the
   oracle once left that result unset: exit 2 in explore, exit 3 in
   check). The failure needs main alone: round 1, no switch. */
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int x;
void init(void) { x = 1; }
void *f(void *a) { return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  int r = pthread_once(&once, init);
  assert(r != 0 || x != 1);
  return 0;
}
