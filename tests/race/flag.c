// expect: race ready
/* Busy-wait hand-off through a plain int: the data is ordered by the
   flag, but the flag itself is read and written by both threads without
   synchronisation (a race on ready, none on data). */
#include "../oracle/prelude.h"
int data = 0;
int ready = 0;
void *producer(void *arg) {
  data = 42;
  ready = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, producer, 0);
  if (ready) {
    int v = data;
    assert(v == 42);
  }
  pthread_join(h, 0);
  return 0;
}
