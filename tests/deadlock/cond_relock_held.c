// deadlock: found
/* The waiter wakes up but cannot take m back: main took m, and main
   joins the waiter while holding it. */
#include "../oracle/prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int x;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  pthread_cond_wait(&c, &m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&m);
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
