// deadlock: none
/* Main joins the worker, which then detaches itself and waits on a
   semaphore nobody posts: the worker never finishes, but main's join of
   a detached thread fails with EINVAL (glibc; undefined in POSIX), so
   main goes on and returns. */
#include "../oracle/prelude.h"
sem_t s;
void *worker(void *arg) {
  pthread_detach(pthread_self());
  sem_wait(&s);
  return 0;
}
int main(void) {
  pthread_t p;
  sem_init(&s, 0, 0);
  pthread_create(&p, 0, worker, 0);
  pthread_join(p, 0);
  return 0;
}
