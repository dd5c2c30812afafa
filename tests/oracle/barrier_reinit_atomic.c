// expect: failed 26 rounds=2 switches=4
/* Main arrives last at the barrier inside an atomic section and sets it
   up again there. The waiter it released still passes and writes passed
   before main's join returns (gcc's build aborts here every time). Every
   method said SUCCESSFUL at every bound while init cleared the cycle
   number. */
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_barrier_t b;
int passed = 0;
void *waiter(void *a) {
  pthread_barrier_wait(&b);
  passed = 1;
  return 0;
}
int main(void) {
  pthread_t w;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&w, 0, waiter, 0);
  __VERIFIER_atomic_begin();
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) { pthread_barrier_destroy(&b); pthread_barrier_init(&b, 0, 2); }
  __VERIFIER_atomic_end();
  pthread_join(w, 0);
  assert(passed == 0);
  return 0;
}
