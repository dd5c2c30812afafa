// expect: successful
/* Compound assignments and increments on _Atomic objects are atomic
   read-modify-writes with C's arithmetic (C11 6.5.2.4p2, 6.5.16.2p3):
   on a float and on a pointer too, with a floating operand on an int
   (x: -3 + 1.5 -> -1, then -1 + 1.5 -> 0), and on a _Bool the result
   converted back. Two threads each do every update once, so after the
   joins each value is exact (gcc agrees). seqc converted the operand to
   the object's type first (x += 1.5 added 1; b ^= 3 xored 1), split
   float and pointer updates into a read and a write (a lost update), and
   refused *=: false bugs on every route (a reviewer's programs). */
#include "prelude.h"
_Atomic float f = 0.0f;
int arr[4];
int *_Atomic p = arr;
_Atomic int x = -3;
_Atomic _Bool b = 1;
_Atomic _Bool c = 1;
_Atomic int m = 1;
int three = 3;
void *t(void *arg) {
  f += 1.0f;
  p++;
  x += 1.5;
  b ^= three;
  c &= 2;
  m *= 3;
  return 0;
}
int main(void) {
  pthread_t a1, a2;
  pthread_create(&a1, 0, t, 0);
  pthread_create(&a2, 0, t, 0);
  pthread_join(a1, 0);
  pthread_join(a2, 0);
  float vf = f;
  int *vp = p;
  int vx = x, vb = b, vc = c, vm = m;
  assert(vf == 2.0f && vp == arr + 2);
  assert(vx == 0 && vb == 1 && vc == 0 && vm == 9);
  return 0;
}
