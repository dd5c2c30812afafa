/* i386 (ILP32) lays `long long` and `double` members on 4-byte
   boundaries; CBMC's --32 alone would put them on 8. seqc's C output
   says 4, so CBMC, gcc -m32, seqc's SMT route and the oracle agree:
   d is at 12, so the last assertion fails. */
#include <assert.h>
#include <stdlib.h>
struct S { int a; long long b; double d; struct { char c; long long x; } in; };
int main(void) {
  struct S *s = malloc(sizeof(struct S));
  s->b = 5;
  s->in.x = 7;
  assert(sizeof(struct S) == 32);
  assert((char *)&s->b - (char *)s == 4);
  assert((char *)&s->in.x - (char *)s == 24);
  assert((char *)&s->d - (char *)s != 12);
  return 0;
}
