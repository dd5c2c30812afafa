// expect: successful
/* Threads created past the thread bound still get ids of their own: no
   two threads share one, and each equals itself. */
#include "prelude.h"
int pthread_equal(pthread_t, pthread_t);
void *t_fun(void *arg) { return 0; }
int main(void) {
  pthread_t ids[30];
  pthread_t other;
  for (int i = 0; i < 30; i++)
    pthread_create(&ids[i], 0, t_fun, 0);
  pthread_create(&other, 0, t_fun, 0);
  assert(!pthread_equal(ids[0], ids[29]));
  assert(!pthread_equal(ids[10], ids[11]));
  assert(!pthread_equal(ids[29], other));
  assert(pthread_equal(ids[20], ids[20]));
  return 0;
}
