// constant:
// written: x
// strings: constant
/* When main is called (here by a thread) it has no prefix: its first
   statements may run beside other threads. */
#include <pthread.h>
int x, depth;
int main(void);
void *worker(void *a) {
  main();
  return a;
}
int main(void) {
  x = 1;
  if (depth++ == 0) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
  }
  return x;
}
