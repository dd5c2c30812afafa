// expect: failed 16 rounds=1 switches=2
/* A shared struct with an anonymous union member. The C output declared
   the member as a tagged union without a name, which declares nothing:
   CBMC failed on every route ("member 'b' not found"). The thread writes
   c before b, so main can see c == 1 while b is still 0. */
#include <assert.h>
#include <pthread.h>

struct V { int a; union { int b; short f; }; int c; } v;

void *t(void *x) { v.c = 1; v.b = 1; return 0; }

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int c = v.c; int b = v.b; assert(!(c == 1 && b == 0));
  return 0;
}
