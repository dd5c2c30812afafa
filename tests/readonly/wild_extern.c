// constant:
// written: g k s_only_read
// strings: written
/* A pointer an external function returns (called through a pointer, as
   seqc allows) may point anywhere: a write through it may change any
   object, even one whose address no statement takes. */
#include <pthread.h>
int g, k = 3, s_only_read = 4;
int *somewhere(void);
void *idle(void *a) { return a; }
int main(void) {
  /* Writes in main before a thread exists would not count (ir::prefix). */
  pthread_t idle_t;
  pthread_create(&idle_t, 0, idle, 0);
  int *(*f)(void) = somewhere;
  int *p = f();
  *p = 1;
  return g + k + s_only_read + "x"[0];
}
