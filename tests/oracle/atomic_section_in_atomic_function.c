// expect: successful
/* A section inside an atomic function: its end must not end the
   function's atomicity. The consumer's decrement and its failed assume
   are one atomic step, so main never reads -1 (a false bug before the
   blocking rule, exit 3 after it; a reviewer's nest2.c). */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int avail = 0, y;
void __VERIFIER_atomic_take(void) {
  __VERIFIER_atomic_begin();
  y = 1;
  __VERIFIER_atomic_end();
  avail = avail - 1;
  __VERIFIER_assume(avail >= 0);
}
void *consumer(void *arg) { __VERIFIER_atomic_take(); return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, consumer, 0);
  int a = avail;
  assert(a >= 0);
  return 0;
}
