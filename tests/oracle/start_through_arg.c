// expect: successful
/* A start routine handed down as a parameter (a pool's shape), chosen by
   a function that returns it: spawn(&t, pick()) creates a thread running
   add2, which adds 2 under the lock and returns its argument. main joins
   it and checks the sum and the value returned. Every assertion holds. */
#include "prelude.h"
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *add1(void *a) {
  x = x + 1;
  return a;
}
void *add2(void *a) {
  pthread_mutex_lock(&m);
  x = x + 2;
  pthread_mutex_unlock(&m);
  return a;
}
void *(*pick(int i))(void *) { return i ? add2 : add1; }
void spawn(pthread_t *t, void *(*f)(void *), void *arg) {
  pthread_create(t, 0, f, arg);
}
int main(void) {
  pthread_t t;
  void *r;
  spawn(&t, pick(1), &x);
  pthread_join(t, &r);
  assert(x == 2 && r == &x);
  return 0;
}
