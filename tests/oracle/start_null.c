// expect: failed 16 rounds=1 switches=0
/* A start routine that is a null pointer (the table's second entry): the
   thread would fault at its first step and end the process, so every run
   in which it has not been scheduled yet is real, and it never runs in
   any run seqc reports. main's failure comes before: x is 1 there. (The
   passes once dropped every run with such a thread, the oracle refused
   it.) */
#include "prelude.h"
int x;
void *w(void *a) { return 0; }
void *(*fs[2])(void *) = {w, 0};
int main(void) {
  pthread_t t;
  x = 1;
  pthread_create(&t, 0, fs[1], 0);
  assert(x == 0);
  return 0;
}
