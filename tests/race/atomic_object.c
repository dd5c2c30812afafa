// expect: race z
/* Reads and writes of an _Atomic object are atomic accesses (C11
   5.1.2.4p25), plain syntax or not: x and a[] never race (both were
   reported as races). z is a plain int: its race stays. */
#include "../oracle/prelude.h"
_Atomic int x;
_Atomic int a[2];
int z;
void *t(void *arg) {
  x = 3;
  a[1] = 4;
  z = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int y = x;
  int w = a[1];
  x += 2;
  int v = z;
  pthread_join(h, 0);
  return y + w + v;
}
