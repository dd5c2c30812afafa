// expect: found 30
// property: memsafety,memtrack
// The worker hands main a buffer through its return value, or through
// the shared pointer if main has already set `want`. main frees only
// the shared pointer: when the worker runs before main sets `want`, the
// returned buffer is dropped with main's locals (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

int want;
int *shared;

void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  *p = 1;
  if (want) {
    shared = p;
    return 0;
  }
  return p;
}

int main(void) {
  pthread_t t;
  void *r;
  pthread_create(&t, 0, worker, 0);
  want = 1;
  pthread_join(t, &r);
  free(shared);
  return 0;
}
