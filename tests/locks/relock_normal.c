// expect: found 13
// property: locks
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;

void *t(void *a) {
  pthread_mutex_lock(&m);
  // Taken again by its holder when main set the flag first: a default
  // mutex deadlocks on itself.
  if (flag)
    pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  flag = 1;
  return 0;
}
