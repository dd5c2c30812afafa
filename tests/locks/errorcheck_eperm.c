// expect: found 25
// property: locks
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int taken;

void *t(void *a) {
  pthread_mutex_lock(&m);
  taken = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &at);
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  // An error-checking mutex returns EPERM here, and the program checks
  // it: still a release of a lock main does not hold.
  int r = pthread_mutex_unlock(&m);
  assert(r != 0);
  pthread_join(a, 0);
  return 0;
}
