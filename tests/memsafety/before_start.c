// expect: found 22
// property: memsafety
// Two threads step an index down from 1 without a lock. One after the
// other they leave it at -1, and main writes before the start of the
// array; a lost update leaves it at 0.
#include <pthread.h>
#include <stdlib.h>
int *a;
int idx = 1;
void *down(void *arg) {
  int i = idx;
  idx = i - 1;
  return 0;
}
int main(void) {
  a = malloc(2 * sizeof(int));
  pthread_t t1, t2;
  pthread_create(&t1, 0, down, 0);
  pthread_create(&t2, 0, down, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  a[idx] = 5;
  return 0;
}
