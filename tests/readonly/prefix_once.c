// constant:
// written: x
// strings: constant
/* pthread_once runs a routine (which may create threads): it ends the
   prefix. */
#include <pthread.h>
int x;
pthread_once_t once = PTHREAD_ONCE_INIT;
void *worker(void *a) { return a; }
static void init(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
}
int main(void) {
  pthread_once(&once, init);
  x = 1;
  return x;
}
