// expect: no-race
/* Every access to the shared counter holds the lock: no race, however
   the threads interleave. */
#include "../oracle/prelude.h"
int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  count = count + 2;
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  return count;
}
