// expect: failed 22 rounds=1 switches=2
/* A union reinterprets a float's bits: the worker stores 1.0f in w.f,
   main reads w.u, the same four bytes, as an unsigned int. 1.0f is
   0x3f800000 in IEEE single precision. Round 1: main creates the
   worker and switches to it; it stores and switches back; main reads
   w.u = 0x3f800000 and fails (main's round 2 is its final context:
   free). Any other order reads 0. */
#include "prelude.h"
union F { float f; unsigned u; } w;
void *worker(void *arg) {
  w.f = 1.0f;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  unsigned v = w.u;
  assert(v == 0 || v == 0x3f800000u);
  /* The float's bits in a double's place would be 0x3ff00000 in the
     high half: a wrong width would show here. */
  assert(v != 0x3ff00000u);
  assert(v != 0x3f800000u);
  return 0;
}
