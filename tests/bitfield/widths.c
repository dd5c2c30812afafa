// expect: successful
/* Values of bit-fields as C and gcc give them, one thread besides main:
   a signed 3-bit field holds -4..3 and wraps there (gcc cuts a value
   that does not fit); an unsigned 5-bit field wraps at 32; a field wider
   than 8 bits spans bytes; a narrow unsigned field is read as int (so
   u - 1 < 0 at u = 0); _Bool keeps 0 or 1; the fields of a local struct
   start indeterminate and each write sets only its own bits. */
#include <pthread.h>
#include <assert.h>
struct w { int v : 3; unsigned u : 5; unsigned wide : 13; _Bool f : 1; };
struct w g;
void *t(void *arg) {
  struct w l;
  l.v = 3;
  l.v++;
  l.u = 31;
  l.u++;
  l.wide = 8191;
  l.f = 2;
  assert(l.v == -4);
  assert(l.u == 0);
  assert(l.u - 1 < 0);
  assert(l.wide == 8191);
  assert(l.f == 1);
  g = l;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  assert(g.v == -4 && g.u == 0 && g.wide == 8191 && g.f);
  g.wide += 2;
  assert(g.wide == 1 && g.u == 0 && g.v == -4);
  return 0;
}
