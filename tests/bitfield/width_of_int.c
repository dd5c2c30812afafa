// expect: successful
/* A bit-field as wide as int in a wider type (unsigned long cnt : 32)
   computes in unsigned int, as gcc does: cnt - 3 wraps at 2^32, and
   sizeof (cnt + 0) is 4. seqc computed in unsigned long and reported
   the assertion failing (a false bug that its own oracle replayed);
   CBMC on this file and the gcc binary both hold it. The signed twin
   (long : 32) computes in int. */
#include "../oracle/prelude.h"
struct S { unsigned long cnt : 32; long sv : 32; };
struct S s;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *thr(void *arg) {
  pthread_mutex_lock(&m);
  s.cnt++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thr, 0);
  pthread_create(&b, 0, thr, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(s.cnt - 3 == 4294967295UL);
  assert(sizeof(s.cnt + 0) == 4 && sizeof(s.sv + 0) == 4);
  assert(s.sv - 1 < 0);
  return 0;
}
