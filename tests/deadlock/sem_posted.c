// deadlock: none
/* sem_never_posted.c with main's post before the join. */
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
  sem_post(&s);
  pthread_join(t, 0);
  return 0;
}
