// expect: failed 16 rounds=2 switches=3
/* The last thread to arrive destroys the barrier and sets it up again,
   as POSIX allows once every waiter has been released. The other thread
   was released by the cycle that ended and passes; here it reads the
   flag the serial thread wrote. Lal-Reps' init once cleared the cycle
   number, so the released waiter saw its own cycle again and stayed
   blocked for good: SUCCESSFUL at K = 2 where the oracle fails in 2
   rounds. */
#include <pthread.h>
#include <assert.h>
pthread_barrier_t b;
int flag = 0;
void *t(void *a) {
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) {
    pthread_barrier_destroy(&b); pthread_barrier_init(&b, 0, 2); flag = 1;
  } else assert(flag == 0);
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&x, 0, t, 0);
  pthread_create(&y, 0, t, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
