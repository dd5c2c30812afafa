// expect: none
// property: memsafety
// The twin of double_free_racy: the check and the clear are one critical
// section, so only one thread frees.
#include <pthread.h>
#include <stdlib.h>
int *buf;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *release(void *arg) {
  pthread_mutex_lock(&m);
  int *b = buf;
  buf = 0;
  pthread_mutex_unlock(&m);
  if (b != 0)
    free(b);
  return 0;
}
int main(void) {
  buf = malloc(4 * sizeof(int));
  pthread_t t1, t2;
  pthread_create(&t1, 0, release, 0);
  pthread_create(&t2, 0, release, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
