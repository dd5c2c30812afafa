// expect: failed 23 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* The barrier is sized for two, but three threads meet at it: main can
   pass it with one worker and read the other cell too early. (The same
   program sized right is barrier_sized.c.) */
#include "prelude.h"
pthread_barrier_t b;
int cell[2];
int serial;
void *worker(void *arg) {
  int i = (int)(long)arg;
  cell[i] = i + 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    serial = serial + 1;
  return 0;
}
int main(void) {
  pthread_t t0, t1;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&t0, 0, worker, (void *)0);
  pthread_create(&t1, 0, worker, (void *)1);
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    serial = serial + 1;
  assert(cell[0] == 1 && cell[1] == 2);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  assert(serial == 1);
  pthread_barrier_destroy(&b);
  return 0;
}
