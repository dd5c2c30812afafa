// constant:
// written: g k
// strings: written
/* A nondeterministic pointer may point anywhere. */
#include <pthread.h>
void *__VERIFIER_nondet_pointer(void);
int g, k = 3;
void *idle(void *a) { return a; }
int main(void) {
  /* Writes in main before a thread exists would not count (ir::prefix). */
  pthread_t idle_t;
  pthread_create(&idle_t, 0, idle, 0);
  int *p = __VERIFIER_nondet_pointer();
  *p = 1;
  return g + k + "x"[0];
}
