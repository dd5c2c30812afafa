// seqc: --method lal-reps --rounds 2 --property memsafety --threads 1 --unwind 1
// Memory-safety checks: the heap table is filled in the allocation's own
// step; each access through a pointer is checked in one atomic step with
// it, an index into a named array against the array, a free against the
// table; an `if` on a read through a pointer is computed first.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct S { int a; int b[2]; };
struct S *p;
int arr[3];
int k;
void *w(void *x) {
  struct S *q = p;
  if (q->a > 0)
    q->b[k] = 1;
  free(q);
  return 0;
}
int main(void) {
  p = malloc(sizeof(struct S));
  memset(p, 0, sizeof(struct S));
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  arr[k] = p->a;
  pthread_join(t, 0);
  return 0;
}
