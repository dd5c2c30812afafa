// expect: failed 29 rounds=2 switches=3
/* Start routines from an array: thread 0 of the loop runs inc, thread 1
   runs dbl, each under the lock. main joins both and checks x == 2,
   which holds when inc runs first (0 + 1, then * 2) and fails when dbl
   runs first (0 * 2 = 0, then + 1 = 1). Round 1: main creates both; dbl
   runs; round 2: inc runs; main's final context joins and fails. */
#include "prelude.h"
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *a) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *dbl(void *a) {
  pthread_mutex_lock(&m);
  x = x * 2;
  pthread_mutex_unlock(&m);
  return 0;
}
void *(*fs[2])(void *) = {inc, dbl};
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, fs[i], 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(x == 2);
  return 0;
}
