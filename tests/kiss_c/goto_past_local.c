/* A goto past the declaration of a local whose address escapes: x still
   exists in its block, and t only writes it, so there is no invalid
   access (memsafety: none). KISS's C output gives such a local a heap
   cell; the cell was made at the declaration only, so the jump left its
   pointer unset and CBMC reported an access next to the freed object
   (exit 3; a reviewer's g2.c). Now each cell is also made at entry. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
int *q;
int r;
void *t(void *arg) {
  int *h = malloc(sizeof(int));
  free(h);
  if (r == 0) goto L;
  int x;
L:
  q = &x;
  *q = 5;
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  return 0;
}
