// expect: failed 18 rounds=1 switches=2
/* An uninitialised local holds any value, also when its address is taken
   (Lal-Reps moves such a local to a pool of shared memory, whose fresh
   slots are zero: the bug below was missed via z3 and CBMC). */
#include <pthread.h>
#include <assert.h>
int seen;
void *f(void *arg) {
  int u;
  int *p = &u;
  seen = *p;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  pthread_join(t, 0);
  assert(seen != 2);
  return 0;
}
