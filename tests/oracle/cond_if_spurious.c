// expect: failed 13 rounds=1 switches=1
/* Waiting with `if` instead of `while`: POSIX allows a spurious wake-up,
   so the waiter can pass the wait with flag still 0 and no other thread
   doing anything. Round 1; one switch (main -> waiter). */
#include "prelude.h"
int flag;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  if (flag == 0)
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
