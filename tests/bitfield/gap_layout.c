// expect: successful
/* gcc starts a bit-field that would straddle a unit of its type in the
   next unit: b (2 bits after a's 7 in a char) lies in byte 1, and
   d in byte 3 (sizeof 4). CBMC packs bit-fields one after another unless
   the C output names the gaps; then it saw b at bits 7-8 and a 3-byte
   struct. A thread sets b and d to -1; main reads the bytes after the
   join. */
#include <pthread.h>
#include <assert.h>
struct S { char a : 7; char b : 2; char c : 7; char d : 2; };
struct S s;
void *t(void *arg) {
  s.b = -1;
  s.d = -1;
  return 0;
}
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  unsigned char *p = (unsigned char *)&s;
  assert(sizeof s == 4);
  assert(p[0] == 0 && p[1] == 3 && p[2] == 0 && p[3] == 3);
  assert(s.a == 0 && s.b == -1 && s.c == 0 && s.d == -1);
  return 0;
}
