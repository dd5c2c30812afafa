// expect: successful
/* The worker sets a value under a key with a destructor and then spins
   on a flag nobody sets: it never terminates, so its destructor never
   runs and `flag` stays 0. seqc cuts the spin at the unwinding bound,
   which stops the thread: a stopped thread must run no destructor, or
   main's assertion would fail in a run the program does not have. */
#include "prelude.h"
pthread_key_t key;
int flag, go;
void dtor(void *v) { flag = 1; }
void *worker(void *arg) {
  pthread_setspecific(key, (void *)1);
  while (!go) {
  }
  return 0;
}
int main(void) {
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(flag == 0);
  return 0;
}
