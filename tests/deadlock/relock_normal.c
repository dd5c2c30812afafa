// deadlock: found
/* A default mutex locked again by its holder waits for itself (glibc;
   undefined in POSIX), and main waits in its join. */
#include "../oracle/prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
