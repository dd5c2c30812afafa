// expect: found 13
// property: memsafety
// The worker clears the last four ints of the buffer as the shared
// length says; main may grow the length to 5 first, one past the end.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
int *buf;
int n = 4;
void *clear(void *arg) {
  int k = n;
  int *b = buf;
  memset(b + (k - 4), 0, 4 * sizeof(int));
  return 0;
}
int main(void) {
  buf = malloc(4 * sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, clear, 0);
  n = 5;
  pthread_join(t, 0);
  memcpy(buf, buf + 2, 2 * sizeof(int));
  return 0;
}
