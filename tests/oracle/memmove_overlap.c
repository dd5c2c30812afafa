// expect: failed 20 rounds=1 switches=2
/* memmove copies ranges that overlap right, in both directions: after
   the thread's copy a is {1, 1, 2, 3}, after main's {1, 2, 2, 3}, so
   the assertion fails. seqc once copied element by element forward (a
   became {1, 1, 1, 1}) and answered SUCCESSFUL on the SMT route and in
   the Lal-Reps C output. */
#include <assert.h>
#include <pthread.h>
#include <string.h>

int a[4] = {1, 2, 3, 4};

void *t(void *x) { memmove(a + 1, a, 3 * sizeof(int)); return 0; }

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  memmove(a, a + 1, 2 * sizeof(int));
  assert(a[3] != 3);
  return 0;
}
