// expect: race x
/* The textbook race: the thread writes x with no lock while main reads
   it. Also a race on y only through the unlocked read in main. */
#include "../oracle/prelude.h"
int x = 0;
void *t(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = x;
  pthread_join(h, 0);
  return v;
}
