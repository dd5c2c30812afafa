// expect: failed 16 rounds=1 switches=2
/* The writer takes the read lock: a reader can see a changed and b not
   yet. (The same program with the write lock is rwlock_readers.c.) */
#include "prelude.h"
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int a, b;
void *writer(void *arg) {
  pthread_rwlock_rdlock(&rw);
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
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
