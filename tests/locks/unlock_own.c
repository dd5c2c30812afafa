// expect: none
// property: locks
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready;

// The safe twin of unlock_non_owner: the thread releases its own lock.
void *t(void *a) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  ready = 0;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
