// expect: successful
/* glibc's answers to a read-write lock's writer that takes it again:
   EDEADLK to read and to write, EBUSY to try to write; after its unlock
   main reads the lock free. (seqc once let such a writer wait for good.) */
#include "prelude.h"
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;
void *w(void *a) {
  pthread_rwlock_wrlock(&l);
  x = 1;
  assert(pthread_rwlock_rdlock(&l) == EDEADLK);
  assert(pthread_rwlock_wrlock(&l) == EDEADLK);
  assert(pthread_rwlock_trywrlock(&l) == EBUSY);
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  assert(pthread_rwlock_trywrlock(&l) == 0 && x == 1);
  return 0;
}
