// constant:
// written: x
// strings: constant
/* A label ends the prefix: a goto from after the first create can jump
   back to it, and what follows it then runs beside the thread. */
#include <pthread.h>
int x;
void *worker(void *a) { return a; }
int main(void) {
  pthread_t t;
  int n = 0;
again:
  x = 1;
  if (n++ == 0) {
    pthread_create(&t, 0, worker, 0);
    goto again;
  }
  return x;
}
