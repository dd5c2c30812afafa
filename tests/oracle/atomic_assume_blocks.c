// expect: successful
/* An assume that fails inside atomic code: the consumer takes a token
   that is not there and waits inside its atomic function, so no thread
   runs again and avail = -1 is never seen (SV-COMP reads the run as
   infeasible, which shows no more). seqc once stopped only the consumer
   and let main read -1: a false bug on every route and in the oracle
   (a reviewer's t33.c). */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_assume(int);

int avail = 0;

void __VERIFIER_atomic_take(void) {
  avail = avail - 1;
  __VERIFIER_assume(avail >= 0);
}

void *consumer(void *arg) {
  __VERIFIER_atomic_take();
  return 0;
}

int main(void) {
  pthread_t th;
  pthread_create(&th, 0, consumer, 0);
  int a = avail;
  assert(a >= 0);
  return 0;
}
