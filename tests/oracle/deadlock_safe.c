// expect: successful
/* Two locks taken in opposite orders: a deadlock is reachable, but no
   assertion can fail (a deadlock is not an assertion violation). */
#include "prelude.h"
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
int x;
void *a_fn(void *arg) {
  pthread_mutex_lock(&m1);
  pthread_mutex_lock(&m2);
  x++;
  pthread_mutex_unlock(&m2);
  pthread_mutex_unlock(&m1);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, a_fn, 0);
  pthread_mutex_lock(&m2);
  pthread_mutex_lock(&m1);
  x++;
  pthread_mutex_unlock(&m1);
  pthread_mutex_unlock(&m2);
  pthread_join(a, 0);
  assert(x == 2);
  return 0;
}
