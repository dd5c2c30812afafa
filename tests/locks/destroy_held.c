// expect: found 19 9
// property: locks
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t(void *a) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  // Destroyed before the join: the thread may hold it.
  pthread_mutex_destroy(&m);
  pthread_join(a, 0);
  return 0;
}
