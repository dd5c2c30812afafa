// expect: found 16
// property: locks
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

// Each thread unlocks a second time when the other ran first: the
// second unlock releases a mutex this thread no longer holds.
void *t(void *a) {
  pthread_mutex_lock(&m);
  x++;
  int again = x > 1;
  pthread_mutex_unlock(&m);
  if (again)
    pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
