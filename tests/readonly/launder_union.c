// constant: k
// written: g
// strings: constant
/* An integer put in a union and read back as a pointer: no cast names
   the conversion. The integer is rebuilt from bit tests of g's address. */
#include <pthread.h>
#include <stdint.h>
int g, k = 3;
union pun { uintptr_t n; int *p; };
void *idle(void *a) { return a; }
int main(void) {
  /* Writes in main before a thread exists would not count (ir::prefix). */
  pthread_t idle_t;
  pthread_create(&idle_t, 0, idle, 0);
  uintptr_t a = (uintptr_t)&g, b = 0;
  if (a & 1) b |= 1;
  if (a & 2) b |= 2;
  if (a & 4) b |= 4;
  if (a & 8) b |= 8;
  if (a & 16) b |= 16;
  union pun u;
  u.n = b;
  *u.p = k;
  return 0;
}
