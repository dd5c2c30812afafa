// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Three ways to reach an int's bytes without a cast from int*: a char
// pointer made from a void pointer (C lets a character type read any
// object), an integer made a pointer between ints, and GNU C's byte
// steps on a void pointer. Each once read memory the program never
// wrote and failed.
#include "prelude.h"
int x;
int a[2];
int main(void) {
  void *v = &x;
  unsigned char *c = v;
  c[1] = 1;
  assert(x == 256);
  a[0] = 0x11111111;
  a[1] = 0x22222222;
  int *p = (int *)((unsigned long)a + 2);
  assert(*p == 0x22221111);
  void *w = a;
  int *q = (int *)(w + 1);
  assert(*q == 0x22111111);
  return 0;
}
