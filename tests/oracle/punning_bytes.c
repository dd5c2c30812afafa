// expect: failed 26 rounds=1 switches=3
/* Type punning: two workers each write one byte of the shared int x
   through an unsigned char pointer; main reads x as an int. Bytes are
   little-endian, so byte 0 is worth 1 and byte 1 is worth 256, and the
   two stores leave each other's byte alone: x is one of 0, 1, 256 and
   257. It is 257 when both workers ran before main's read: round 1,
   main creates both and switches to a, a to b, b back to main, which
   reads 257 and fails (main's round 2 is its final context: free). */
#include "prelude.h"
int x;
void *a(void *arg) {
  unsigned char *p = (unsigned char *)&x;
  p[0] = 1;
  return 0;
}
void *b(void *arg) {
  ((unsigned char *)&x)[1] = 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, a, 0);
  pthread_create(&t2, 0, b, 0);
  int v = x;
  assert(v == 0 || v == 1 || v == 256 || v == 257);
  assert(v != 257);
  return 0;
}
