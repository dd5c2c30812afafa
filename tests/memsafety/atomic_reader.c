// expect: found 10
// property: memsafety
// An atomic function reads through a pointer another thread frees: the
// check stands inside the atomic step.
#include <pthread.h>
#include <stdlib.h>
int *data;
int seen;
void __VERIFIER_atomic_read(void) {
  seen = *data + 1;
}
void *freer(void *arg) {
  int *d = data;
  free(d);
  return 0;
}
int main(void) {
  data = malloc(sizeof(int));
  *data = 1;
  pthread_t t;
  pthread_create(&t, 0, freer, 0);
  __VERIFIER_atomic_read();
  pthread_join(t, 0);
  return 0;
}
