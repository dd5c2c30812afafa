// deadlock: found
/* Main holds m and joins t1; t1 joins t2; t2 needs m. */
#include "../oracle/prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t t2id;
int x;
void *t2(void *arg) {
  pthread_mutex_lock(&m);
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
void *t1(void *arg) {
  pthread_join(t2id, 0);
  x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_mutex_lock(&m);
  pthread_create(&t2id, 0, t2, 0);
  pthread_create(&a, 0, t1, 0);
  pthread_join(a, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
