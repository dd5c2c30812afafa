// expect: failed 20 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* The twin of key_dtor_runs.c asserting that the destructor has NOT run
   after the join: it always has, so the assertion fails in every run
   that gets past the join. Fewest: main creates the worker (round 1),
   the worker sets its value, returns and runs the destructor (its round
   1), main joins and fails (round 2): 2 rounds, 2 switches. */
#include "prelude.h"
pthread_key_t key;
int cleaned;
void dtor(void *v) { cleaned = (int)(long)v; }
void *worker(void *arg) {
  pthread_setspecific(key, (void *)7);
  return 0;
}
int main(void) {
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(cleaned == 0);
  return 0;
}
