// expect: none
// property: locks,locks-exit
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

// The safe twin of double_unlock: each unlock matches a lock.
void *t(void *a) {
  pthread_mutex_lock(&m);
  x++;
  int again = x > 1;
  pthread_mutex_unlock(&m);
  if (again) {
    pthread_mutex_lock(&m);
    x--;
    pthread_mutex_unlock(&m);
  }
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
