// expect: found 23
// property: memtrack
// The worker allocates two 16-byte buffers in a row into one global; the
// first is lost. Objects of 16 bytes lie one gap apart, so the gap after
// the first is the gap before the second: a pointer to the second must
// not count as pointing into the first (a check that counted the first
// object's end plus the gap once answered safe here).
#include <pthread.h>
#include <stdlib.h>

char *g;

void *worker(void *arg) {
  for (int i = 0; i < 2; i++)
    g = malloc(16);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
