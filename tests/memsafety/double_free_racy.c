// expect: found 12
// property: memsafety
// Both threads check the buffer and free it: without a lock both may see
// it before either clears it, and the second free is a double free.
#include <pthread.h>
#include <stdlib.h>
int *buf;
void *release(void *arg) {
  int *b = buf;
  if (b != 0) {
    buf = 0;
    free(b);
  }
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
