// expect: race struct pair.b
/* A heap block handed to the thread: both write field a under the lock,
   but main reads b without it while the thread writes b. */
#include "../oracle/prelude.h"
struct pair {
  int a;
  int b;
};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) {
  struct pair *p = arg;
  pthread_mutex_lock(&m);
  p->a = 1;
  pthread_mutex_unlock(&m);
  p->b = 2;
  return 0;
}
int main(void) {
  pthread_t h;
  struct pair *p = malloc(sizeof(struct pair));
  p->a = 0;
  p->b = 0;
  pthread_create(&h, 0, t, p);
  pthread_mutex_lock(&m);
  p->a = 3;
  pthread_mutex_unlock(&m);
  int v = p->b;
  pthread_join(h, 0);
  return v;
}
