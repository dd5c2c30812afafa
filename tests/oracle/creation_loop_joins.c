// expect: successful
/* A join of a thread that was created past the thread bound blocks (the
   thread never runs within the bound), so main never gets past the join
   loop with fewer than all increments done. Letting such a join return
   would report the assertion as failing: a false bug. */
#include "prelude.h"
int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t_fun(void *arg) {
  pthread_mutex_lock(&m);
  done = done + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t ids[40];
  for (int i = 0; i < 40; i++)
    pthread_create(&ids[i], 0, t_fun, 0);
  for (int i = 0; i < 40; i++)
    pthread_join(ids[i], 0);
  assert(done == 40);
  return 0;
}
