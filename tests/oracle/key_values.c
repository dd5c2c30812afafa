// expect: failed 14 rounds=2 switches=3
/* A key is a number, from 0 up (glibc, and the sequentializations): a
   copy of a key holds its number, and creating a key stores it where
   the program says, a step another thread may see. The oracle once
   initialised a copy to zero (`pthread_key_t k = b;`, a false bug),
   numbered keys from 1, and took key creation for an invisible step, so
   it missed the bug below that Lal-Reps found: the reader sees c
   before and after main's second create. */
#include "prelude.h"
pthread_key_t a, b, c;
void *reader(void *arg) {
  pthread_key_t x = c;
  pthread_key_t y = c;
  assert(x == y);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_key_create(&a, 0);
  pthread_key_t k = a;
  assert(k == a && a == 0);
  pthread_create(&t, 0, reader, 0);
  pthread_key_create(&b, 0);
  pthread_key_create(&c, 0);
  return 0;
}
