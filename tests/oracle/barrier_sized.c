// expect: successful
/* Two workers write their cell, then meet main at a barrier for three:
   main reads both cells only after both wrote. Exactly one of the three
   gets PTHREAD_BARRIER_SERIAL_THREAD. */
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
  pthread_barrier_init(&b, 0, 3);
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
