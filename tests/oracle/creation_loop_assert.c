// expect: failed 26 rounds=1 switches=2
/* Twenty threads created in a counted loop (the goblint-regression
   shape): the loop runs in full whatever the unwinding bound, and the
   creates past the thread bound make threads that never run, so main
   gets to its assertion. The first thread's increment is visible to
   main between the thread's two critical sections: main creates (round
   1), thread 1 runs its first section and stops there, main asserts in
   its final context (free). Switches: main -> thread 1 -> main = 2. */
#include "prelude.h"
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t_fun(void *arg) {
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  g = g - 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t ids[20];
  for (int i = 0; i < 20; i++)
    pthread_create(&ids[i], 0, t_fun, 0);
  pthread_mutex_lock(&m);
  assert(g == 0);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 20; i++)
    pthread_join(ids[i], 0);
  return 0;
}
