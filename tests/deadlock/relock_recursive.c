// deadlock: none
/* relock_normal.c with a recursive mutex: the holder counts up. */
#include "../oracle/prelude.h"
pthread_mutex_t m;
int x;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_t t;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
