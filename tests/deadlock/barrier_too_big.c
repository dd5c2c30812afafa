// deadlock: found
/* A barrier for three threads that only two ever reach: both wait for
   good, and main waits in its first join. */
#include "../oracle/prelude.h"
pthread_barrier_t bar;
int x;
void *worker(void *arg) {
  pthread_barrier_wait(&bar);
  x++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&bar, 0, 3);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
