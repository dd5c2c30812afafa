// expect: failed 21 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* The worker's trylock fails with EBUSY while main holds the spinlock;
   the worker then gives up without incrementing. */
#include "prelude.h"
pthread_spinlock_t sl;
int x;
void *inc(void *arg) {
  if (pthread_spin_trylock(&sl) == 0) {
    x = x + 1;
    pthread_spin_unlock(&sl);
  }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_spin_lock(&sl);
  pthread_create(&a, 0, inc, 0);
  pthread_spin_unlock(&sl);
  pthread_join(a, 0);
  assert(x == 1);
  return 0;
}
