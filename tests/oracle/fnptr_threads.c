// expect: failed 23 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* Threads started from a function called through a pointer, and workers
   that call a callback through a pointer of another type (a driver's
   shape). The create site must still come after main in the static
   order: a call through `int (*)(int)` cannot reach `spawn`, a
   `void (*)(void)`. The failure: main reads x == 1, so one worker added
   between main's spawn and main's read. Round 1: main spawns; worker 1
   adds; round 2: main reads and fails. */
#include "prelude.h"
int x;
int add(int v) { return v + 1; }
int (*cb)(int) = add;
void *worker(void *arg) {
  x = cb(x);
  return 0;
}
pthread_t t;
void spawn(void) { pthread_create(&t, 0, worker, 0); }
void (*start)(void) = spawn;
int main(void) {
  start();
  int v = x;
  assert(v != 1);
  pthread_join(t, 0);
  return 0;
}
