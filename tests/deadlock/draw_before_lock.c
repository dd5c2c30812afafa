// deadlock: found
/* The worker draws a value before its lock: unless it draws 2 it goes on
   to lock m, which main holds while it joins the worker. The draw touches
   only the worker's own local, so a run where it drew 0 and stands before
   the lock is a deadlock (the oracle must not need every draw to block). */
#include "../oracle/prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int v = __VERIFIER_nondet_int();
  if (v == 2)
    return 0;
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
