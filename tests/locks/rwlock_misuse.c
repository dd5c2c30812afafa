// expect: found 13
// property: locks
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;

void *t(void *a) {
  pthread_rwlock_wrlock(&rw);
  x = 1;
  pthread_rwlock_unlock(&rw);
  // A second unlock: free by now, or held for writing by main.
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  return 0;
}
