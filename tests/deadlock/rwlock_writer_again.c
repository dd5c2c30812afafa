// deadlock: none
/* The writer takes its own read-write lock again, to read and to write:
   glibc returns EDEADLK to both (POSIX leaves it undefined), so it goes on,
   unlocks, and main's join returns. seqc once read these as waiting for
   good and reported a deadlock glibc never hangs on. */
#include "../oracle/prelude.h"
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;
void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
  pthread_rwlock_rdlock(&rw);
  pthread_rwlock_wrlock(&rw);
  x = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  return 0;
}
