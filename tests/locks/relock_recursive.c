// expect: none
// property: locks,locks-exit
#include <pthread.h>

pthread_mutex_t m;
int flag;

// The safe twin of relock_normal: a recursive mutex counts.
void *t(void *a) {
  pthread_mutex_lock(&m);
  if (flag) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &at);
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  flag = 1;
  pthread_join(a, 0);
  return 0;
}
