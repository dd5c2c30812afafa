// seqc: --method kiss --ts 1 --property deadlock
#include <pthread.h>

/* Main holds m and joins a thread that needs it: both record their
   waits, and the end of the run tests them. */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
