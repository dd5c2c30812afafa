// locks: found locks 14
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t(void *a) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  // The second unlock releases nothing this thread holds (POSIX:
  // undefined for a normal mutex).
  if (x > 1)
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
