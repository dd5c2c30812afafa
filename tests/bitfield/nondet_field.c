// expect: failed 18 rounds=1 switches=2
/* A thread stores a nondeterministic value into a 2-bit unsigned field
   (it keeps the low two bits); main checks the field after the join. A
   value whose low bits are 3 fails, in round 1 (main creates, the thread
   runs to its end, main's final context checks): two switches. */
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct { unsigned k : 2; unsigned rest : 6; } s;
void *t(void *arg) {
  s.k = __VERIFIER_nondet_int();
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  assert(s.k != 3);
  return 0;
}
