// expect: failed 11 rounds=1 switches=1
/* pthread_exit inside atomic code ends the thread and its atomic step,
   and the others go on: main sets x = 1 and ends inside its atomic
   function, then t passes its assume and fails. Once blocking inside
   atomic code dropped the run, pthread_exit was taken for a block too
   and the bug was missed on every route (a reviewer's pe2.c). */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_assume(int);
int x;
void *t(void *a) { __VERIFIER_assume(x == 1); assert(0); return 0; }
void __VERIFIER_atomic_fin(void) { x = 1; pthread_exit(0); }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  __VERIFIER_atomic_fin();
  return 0;
}
