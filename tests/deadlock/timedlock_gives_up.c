// deadlock: none
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct timespec at;

// A timed lock never waits for good: the thread times out while main
// holds the mutex and waits for it.
void *t(void *a) {
  if (pthread_mutex_timedlock(&m, &at) == 0)
    pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  pthread_join(a, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
