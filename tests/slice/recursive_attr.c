// A recursive mutex relocked by its holder, then a failing assertion.
// Tracking only `g` slices the attribute object (an int once lowered):
// its settype store must not vanish while pthread_mutex_init still reads
// it, or the relock blocks and a sliced SAFE hides the bug.
#include <assert.h>
#include <pthread.h>

int g;
pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  g = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(g == 0);
  return 0;
}
