/* A pointer kept in a long: slicing the long would make its reads havocs,
   which can never give back the address the original stored, so a
   program that makes a pointer from such an integer slices nothing.
   `--track g` was a false proof (a reviewer's intptr.c), and so was
   refine, which stopped at {g}. */
#include <assert.h>
#include <pthread.h>
int g;
long addr;
void *t(void *arg) {
  *(int *)addr = 5;
  return 0;
}
int main(void) {
  addr = (long)&g;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(g != 5);
  return 0;
}
