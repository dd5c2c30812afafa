// expect: found 13
// property: memsafety
// Two threads push onto a three-slot array holding two: each checks for
// room, then reads the count again. If both check before either pushes,
// the second pushes at index 3, past the end.
#include <pthread.h>
#include <stdlib.h>
int *slots;
int count = 2;
void *push(void *arg) {
  if (count < 3) {
    int c = count;
    slots[c] = 7;
    count = c + 1;
  }
  return 0;
}
int main(void) {
  slots = malloc(3 * sizeof(int));
  pthread_t t1, t2;
  pthread_create(&t1, 0, push, 0);
  pthread_create(&t2, 0, push, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
