// expect: successful
/* The writer changes a and b together under the write lock; the reader
   checks them under the read lock, while main reads them under a read
   lock at the same time as the reader (readers share the lock). */
#include "prelude.h"
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int a, b;
void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
  a = a + 1;
  b = b + 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}
void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  assert(a == b);
  pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_rwlock_rdlock(&rw);
  assert(a == b);
  pthread_rwlock_unlock(&rw);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
