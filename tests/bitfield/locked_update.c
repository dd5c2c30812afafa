// expect: successful
/* lost_update.c with the increment under a lock: always 3. Neighbours
   written by other threads at the same time (s.b by one, s.c by the
   other, outside the lock) keep their values: each write of a bit-field
   changes its own bits only. */
#include <pthread.h>
#include <assert.h>
struct flags { unsigned a : 3; signed b : 4; unsigned c : 1; } s = { 1, -3, 0 };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  unsigned t = s.a;
  s.a = t + 1;
  pthread_mutex_unlock(&m);
  if (arg)
    s.b = 5;
  else
    s.c = 1;
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, inc, 0);
  pthread_create(&y, 0, inc, (void *)1);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(s.a == 3);
  assert(s.b == 5);
  assert(s.c == 1);
  return 0;
}
