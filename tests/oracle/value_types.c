// expect: successful
/* Types of values C fixes and seqc got wrong (a reviewer's k1.c, k4.c,
   o2.c, q2.c): a comma expression's result is a value, so an array
   decays (`sizeof (0, a)` is a pointer's size); `c ? int_ptr : void_ptr`
   is a `void *` (C11 6.5.15p6), so adding 1 (GNU C) steps one byte; the
   value of `__builtin_expect` is a long; an uninitialised `_Bool` holds
   0 or 1. Each was a false bug; the last was exit 3 (the backends
   started the `_Bool` at any byte and the oracle could not replay it).
   gcc agrees with every assertion; CBMC on this file does not (it gives
   the comma the array's size and the `_Bool` any byte). A diff reviewer
   then found the first fixes too broad: a comma kept a bit-field's type
   (`sizeof (0, s.bf)` is 1) and `(const void *)0` or `(void *)NULL` is
   no null pointer constant, so the result is a void pointer. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
long __builtin_expect(long, long);
struct B { unsigned char bf : 3; } sb;
int main(void) {
  int a[10];
  int *ip = a;
  void *vp = a;
  int c = __VERIFIER_nondet_int();
  assert(sizeof(0, a) == sizeof(int *));
  assert(sizeof(0, "abc") == sizeof(char *));
  char *r = (char *)((c ? ip : vp) + 1);
  assert(r == (char *)a + 1);
  char *r2 = (char *)((c ? vp : ip) + 1);
  assert(r2 == (char *)a + 1);
  assert(sizeof(0, sb.bf) == 1);
  /* The type of `?:` by the step of + 1 (GNU C adds bytes to a void
     pointer): _Generic on pointer types is refused, seqc's types keep
     no qualifiers. */
  assert((char *)((1 ? ip : (const void *)0) + 1) - (char *)ip == 1);
  assert((char *)((1 ? ip : (void *)((void *)0)) + 1) - (char *)ip == 1);
  assert((char *)((0 ? (void *)0 : ip) + 1) - (char *)ip == sizeof(int));
  int *n = c ? ip : (void *)0;
  assert(n == ip || n == 0);
  unsigned u = 1;
  assert(__builtin_expect(u, 1) > -1);
  assert(__builtin_expect(0x80000000u, 0) * 2 == 4294967296L);
  _Bool z;
  int w = z;
  assert(w == 0 || w == 1);
  return 0;
}
