// expect: found 30
// property: memtrack
// Two threads each put a fresh buffer into a shared slot and free the
// one they replaced, without a lock: if both read the slot before
// either writes it, the first buffer written is overwritten and never
// freed. main frees what the slot holds and returns with the other
// buffer unreachable (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

int *slot;

void *put(void *arg) {
  int *p = malloc(sizeof(int));
  int *old = slot;
  slot = p;
  if (old)
    free(old);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, put, 0);
  pthread_create(&b, 0, put, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  free(slot);
  slot = 0;
  return 0;
}
