// expect: failed 14 rounds=1 switches=1
/* A static start routine declared above main and defined below it: its
   body was never lowered, so every route said SUCCESSFUL and the oracle
   refused the call (a reviewer's d2c; the assertion fails in any run). */
#include <assert.h>
#include <pthread.h>
static void *t(void *p);
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  return 0;
}
static void *t(void *p) { assert(0); return p; }
