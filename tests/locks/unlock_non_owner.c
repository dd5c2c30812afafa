// expect: found 19
// property: locks
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready;

void *t(void *a) {
  pthread_mutex_lock(&m);
  ready = 1;
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  // Released by a thread that never took it.
  if (ready)
    pthread_mutex_unlock(&m);
  return 0;
}
