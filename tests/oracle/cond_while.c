// expect: successful
/* The same with `while`: a spurious wake-up re-checks the flag; a waiter
   that waits too long is cut by the unwinding bound, which stops only it.
   The assertion holds whenever it is reached. */
#include "prelude.h"
int flag;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  while (flag == 0)
    pthread_cond_wait(&c, &m);
  assert(flag == 1);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t w;
  pthread_create(&w, 0, waiter, 0);
  pthread_mutex_lock(&m);
  flag = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
