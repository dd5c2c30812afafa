// expect: none
// property: memsafety
// The twin of index_past_end: the check and the push are one critical
// section.
#include <pthread.h>
#include <stdlib.h>
int *slots;
int count = 2;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *push(void *arg) {
  pthread_mutex_lock(&m);
  if (count < 3) {
    int c = count;
    slots[c] = 7;
    count = c + 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  slots = malloc(3 * sizeof(int));
  pthread_t t1, t2;
  pthread_create(&t1, 0, push, 0);
  pthread_create(&t2, 0, push, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return slots[2];
}
