// expect: failed 16 rounds=2 switches=4 (main's round 3 below is its final context: free)
/* x++ on a shared x is two steps (read, then write): the same lost update
   as lost_update.c, with the same measures (3 rounds, 4 switches). */
#include "prelude.h"
int x;
void *inc(void *arg) {
  x++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
