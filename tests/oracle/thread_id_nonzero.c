// expect: successful
/* A zero pthread_t means "no owner" here, as in many programs: glibc never
   gives a thread the id 0, main included, so the owner check cannot fail.
   (seqc once gave main the id 0: a false FAILED on every route.) */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t owner; /* 0: nobody */
int x;
void *f(void *a) {
  pthread_mutex_lock(&m);
  owner = pthread_self();
  x++;
  owner = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  assert(t != 0);
  pthread_mutex_lock(&m);
  assert(owner == 0);
  owner = pthread_self();
  assert(owner != 0);
  x++;
  owner = 0;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(x == 2);
  return 0;
}
