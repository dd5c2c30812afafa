// expect: failed 26 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* The twin of mutex_recursive.c asserting count != 2 after the join: the
   worker's relock succeeds, so both increments happen and the assertion
   fails in every run that reaches it. A model where the holder's relock
   blocks misses this bug. Fewest: main creates (round 1), the worker runs
   to its end (round 1), main joins and fails (round 2). The mutex is
   recursive through PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP, glibc's
   initialiser whose only non-zero word is the kind (x86-64 layout). */
#include "prelude.h"
#define PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP { { 0, 0, 0, 0, 1, 0, 0, { 0, 0 } } }
pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int count;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  count++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(count != 2);
  return 0;
}
