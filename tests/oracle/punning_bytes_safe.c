// expect: successful
/* The twin of punning_bytes.c: the same two byte stores, and main
   allows every value they can leave: a store of one byte keeps the
   other bytes, so no interleaving gives x a value outside these four
   (a model that wrote the whole int back would lose one store and
   still pass; one that read the bytes the wrong way round would fail
   on 1 or 256's twin, 16777216). After both joins x is 257. */
#include "prelude.h"
int x;
void *a(void *arg) {
  unsigned char *p = (unsigned char *)&x;
  p[0] = 1;
  return 0;
}
void *b(void *arg) {
  ((unsigned char *)&x)[1] = 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, a, 0);
  pthread_create(&t2, 0, b, 0);
  int v = x;
  assert(v == 0 || v == 1 || v == 256 || v == 257);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 257);
  return 0;
}
