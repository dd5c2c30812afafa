// expect: found 15
// property: locks-exit
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

// An early return keeps the mutex when main wrote first.
void *t(void *a) {
  pthread_mutex_lock(&m);
  if (x) {
    pthread_mutex_unlock(&m);
    return 0;
  }
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  x = 1;
  pthread_join(a, 0);
  return 0;
}
