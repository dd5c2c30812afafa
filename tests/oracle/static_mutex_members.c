// expect: successful
/* PTHREAD_*_INITIALIZER inside an aggregate (a struct member, array
   elements), as Linux-derived code writes it: once refused as "excess
   elements in initializer". The counter's lock makes the two increments
   exclusive; ms[1] is recursive, so its holder may take it again. */
#define _GNU_SOURCE
#include <pthread.h>
#include <assert.h>
struct counter { pthread_mutex_t lock; int n; };
struct counter C = { PTHREAD_MUTEX_INITIALIZER, 0 };
pthread_mutex_t ms[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };
void *f(void *a) {
  pthread_mutex_lock(&C.lock);
  int t = C.n;
  C.n = t + 1;
  pthread_mutex_unlock(&C.lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  f(0);
  pthread_join(t, 0);
  assert(C.n == 2);
  assert(pthread_mutex_lock(&ms[1]) == 0);
  assert(pthread_mutex_lock(&ms[1]) == 0);
  return 0;
}
