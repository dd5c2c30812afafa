// constant: k tab
// written: g
// strings: constant
/* g's address, held as an integer, comes back as a pointer through a
   table lookup: no flow of values leads from &g to the pointer written
   through, so every object whose address is held as an integer counts
   as written once any write goes through a pointer. k and the table are
   only read; the string is parsed with pointer arithmetic, which exposes
   nothing. */
#include <pthread.h>
#include <stdint.h>
const unsigned tab[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
int g, k = 3;
void *idle(void *a) { return a; }
int main(void) {
  /* Writes in main before a thread exists would not count (ir::prefix). */
  pthread_t idle_t;
  pthread_create(&idle_t, 0, idle, 0);
  uintptr_t a = (uintptr_t)&g;
  uintptr_t b = tab[a & 15] | tab[(a >> 4) & 15] << 4 | tab[(a >> 8) & 15] << 8 |
                tab[(a >> 12) & 15] << 12;
  *(int *)b = 1;
  const char *s = "42", *e = s;
  while (*e) e++;
  return (int)(e - s) + k;
}
