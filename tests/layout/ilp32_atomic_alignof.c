/* i386 (gcc -m32): GNU C's __alignof__ gives the preferred alignment,
   8 for double and long long (and arrays of them), where _Alignof and
   struct members use 4; an _Atomic type of size 8 is 8-aligned, in a
   struct too. seqc once answered 4 for both (a false FAILED here). */
#include <assert.h>
#include <stdlib.h>
struct A { char c; _Atomic long long x; int t; };
struct S { double d; };
typedef double D;
int main(void) {
  assert(__alignof__(long long) == 8 && __alignof__(double) == 8);
  assert(__alignof__(double[2]) == 8 && __alignof(const D) == 8);
  assert(__alignof__(struct S) == 4 && _Alignof(double) == 4);
  assert(_Alignof(long long) == 4 && __alignof__(int) == 4);
  assert(sizeof(struct A) == 24 && _Alignof(struct A) == 8);
  assert(_Alignof(_Atomic long long) == 8);
  struct A *a = malloc(sizeof(struct A));
  a->x = 3;
  a->t = 4;
  assert((char *)&a->x - (char *)a == 8);
  assert((char *)&a->t - (char *)a == 16);
  assert(a->x + a->t == 7);
  return 0;
}
