// deadlock: found
/* The consumer waits on a semaphore nobody posts (it starts at 0) and
   main waits in its join. */
#include "../oracle/prelude.h"
sem_t s;
int x;
void *consumer(void *arg) {
  sem_wait(&s);
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  sem_init(&s, 0, 0);
  pthread_create(&t, 0, consumer, 0);
  pthread_join(t, 0);
  return 0;
}
