// expect: none
// property: locks,locks-exit
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;

// Readers and a writer, each unlock matching its lock; destroyed after
// the joins.
void *reader(void *a) {
  pthread_rwlock_rdlock(&rw);
  int y = x;
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, reader, 0);
  pthread_rwlock_wrlock(&rw);
  x = 1;
  pthread_rwlock_unlock(&rw);
  pthread_join(a, 0);
  pthread_rwlock_destroy(&rw);
  return 0;
}
