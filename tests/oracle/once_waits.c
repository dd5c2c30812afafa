// expect: successful
/* POSIX: on return from pthread_once the routine has completed. A
   second caller that finds it running waits: both see inited == 2. (The
   model once let the second caller go on at once: exit 3 on every route,
   since the oracle waits.) */
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inited;
void init(void) {
  inited = 1;
  inited = 2;
}
void *f(void *a) {
  pthread_once(&once, init);
  assert(inited == 2);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  pthread_once(&once, init);
  assert(inited == 2);
  return 0;
}
