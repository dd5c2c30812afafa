// expect: failed 21 rounds=1 switches=2
/* A join of the thread itself returns EDEADLK at once (glibc; POSIX
   leaves it undefined), for a thread and for main: the first two
   assertions hold, and the thread goes on to set done. (seqc once
   stopped a thread there, so the last assertion, which fails, was
   never reached: a missed bug.) */
#include <pthread.h>
#include <assert.h>
#include <errno.h>
int done;
void *f(void *a) {
  assert(pthread_join(pthread_self(), 0) == EDEADLK);
  done = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  assert(pthread_join(pthread_self(), 0) == EDEADLK);
  pthread_create(&t, 0, f, 0);
  pthread_join(t, 0);
  assert(done == 0);
  return 0;
}
