// expect: failed 16 rounds=1 switches=0
/* Four creates at one site in a loop, three threads per site (the
   default): the fourth thread is made but never runs in this run. Its
   detach returns 0 as for any thread, and main goes on to the failing
   assertion. (seqc once stopped the caller there: a missed bug.) */
#include <pthread.h>
#include <assert.h>
int x;
void *f(void *a) { return 0; }
int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, f, 0);
  int r = pthread_detach(t[3]);
  assert(r == 0);
  assert(x == 1);
  return 0;
}
