// expect: failed 12 rounds=1 switches=1
/* pthread_exit in main ends main only: the worker goes on, joins main
   (POSIX allows joining the initial thread) and fails, since main set
   `flag` before exiting. A model that treats main's pthread_exit as exit
   misses this bug. Fewest: main runs to its exit (round 1), the worker
   joins and fails in its first context: 1 round, 1 switch. */
#include "prelude.h"
pthread_t main_id;
int flag;
void *worker(void *arg) {
  pthread_join(main_id, 0);
  assert(flag == 0);
  return 0;
}
int main(void) {
  main_id = pthread_self();
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  flag = 1;
  pthread_exit(0);
  return 0;
}
