// expect: failed 21 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* One token: the worker's trywait takes it or fails with -1 (it never
   waits). After the join, main reads the count: 0 if the worker took the
   token, else 1. The assertion forgets the first case. */
#include "prelude.h"
sem_t s;
int got;
void *worker(void *arg) {
  if (sem_trywait(&s) == 0)
    got = 1;
  return 0;
}
int main(void) {
  pthread_t w;
  int v;
  sem_init(&s, 0, 1);
  pthread_create(&w, 0, worker, 0);
  pthread_join(w, 0);
  sem_getvalue(&s, &v);
  assert(v == 1 - got);
  assert(v == 1);
  return 0;
}
