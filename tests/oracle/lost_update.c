// expect: failed 22 rounds=2 switches=4 (main's round 3 below is its final context: free)
/* Two threads increment x through a local: the lost update.
   Rounds: main must create both threads (round 1) and assert after both
   returned; a must read x, then b read and write, then a write; a's two
   contexts have b between them, so a needs rounds 1 and 2 (b runs in
   round 1 after a), and main's assertion comes after a's last context:
   round 3. Context switches: main -> a (read) -> b (read, write) -> a
   (write) -> main = 4. */
#include "prelude.h"
int x = 0;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
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
