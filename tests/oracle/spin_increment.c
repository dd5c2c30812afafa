// expect: successful
/* The lost update with the increment under a spinlock. */
#include "prelude.h"
pthread_spinlock_t sl;
int x;
void *inc(void *arg) {
  pthread_spin_lock(&sl);
  int t = x;
  x = t + 1;
  pthread_spin_unlock(&sl);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
