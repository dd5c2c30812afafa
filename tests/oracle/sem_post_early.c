// expect: failed 17 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* The producer posts before it writes: the consumer can pass its wait
   and read the old value. */
#include "prelude.h"
sem_t s;
int data;
void *producer(void *arg) {
  sem_post(&s);
  data = 42;
  return 0;
}
int main(void) {
  pthread_t p;
  sem_init(&s, 0, 0);
  pthread_create(&p, 0, producer, 0);
  sem_wait(&s);
  assert(data == 42);
  pthread_join(p, 0);
  return 0;
}
