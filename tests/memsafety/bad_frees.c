// expect: found 16 19
// property: memsafety
// free of a pointer into the middle of a heap object, and free of a
// global: neither was returned by malloc. The worker's free of the start
// is valid; main's choice says which bad free it makes.
#include <pthread.h>
#include <stdlib.h>
int g;
int *p;
void *worker(void *arg) {
  free(p);
  return 0;
}
void bad(int which, int *q) {
  if (which == 1)
    free(q + 1);
  else if (which == 2) {
    int *x = &g;
    free(x);
  }
}
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *q = malloc(2 * sizeof(int));
  p = q;
  bad(__VERIFIER_nondet_int(), q);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
