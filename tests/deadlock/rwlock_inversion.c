// deadlock: found
/* A writer holds the read-write lock and wants m; main holds m and wants
   a read lock. */
#include "../oracle/prelude.h"
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_mutex_lock(&m);
  pthread_rwlock_rdlock(&rw);
  x++;
  pthread_rwlock_unlock(&rw);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
