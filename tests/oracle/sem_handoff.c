// expect: successful
/* Producer and consumer: the producer writes, then posts; the consumer
   waits for the post (the semaphore starts at 0), then reads. */
#include "prelude.h"
sem_t s;
int data;
void *producer(void *arg) {
  data = 42;
  sem_post(&s);
  return 0;
}
int main(void) {
  pthread_t p;
  sem_init(&s, 0, 0);
  pthread_create(&p, 0, producer, 0);
  sem_wait(&s);
  assert(data == 42);
  pthread_join(p, 0);
  sem_destroy(&s);
  return 0;
}
