// expect: failed 24 rounds=2 switches=4
/* Two threads increment the 3-bit field s.a through a local: the lost
   update, as tests/oracle/lost_update.c, in a bit-field that shares its
   byte with s.b and s.c. Writing s.a keeps s.b and s.c (asserted): s.a
   starts at 1, two increments give 3, a lost one 2. Rounds and switches
   as in tests/oracle/lost_update.c. */
#include <pthread.h>
#include <assert.h>
struct flags { unsigned a : 3; signed b : 4; unsigned c : 1; } s = { 1, -3, 1 };
void *inc(void *arg) {
  unsigned t = s.a;
  s.a = t + 1;
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, inc, 0);
  pthread_create(&y, 0, inc, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(s.b == -3);
  assert(s.c == 1);
  assert(s.a != 0);
  assert(s.a == 3);
  return 0;
}
