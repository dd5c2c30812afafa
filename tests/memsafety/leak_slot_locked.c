// expect: none
// property: memtrack
// The twin of leak_lost_slot: reading the slot and putting the new
// buffer in are one critical section, so each buffer replaced is freed
// by the thread that replaced it and main frees the last one.
#include <pthread.h>
#include <stdlib.h>

int *slot;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *put(void *arg) {
  int *p = malloc(sizeof(int));
  pthread_mutex_lock(&m);
  int *old = slot;
  slot = p;
  pthread_mutex_unlock(&m);
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
