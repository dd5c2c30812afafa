// expect: successful
/* POSIX: when a thread returns with a non-NULL value under a key that has
   a destructor, the value is set to NULL and the destructor is called
   with the old value, and this completes before the thread terminates,
   so before main's join returns. `cleaned` is 7 at the assertion in every
   run. (A model that drops the destructor reports a false bug here.) */
#include "prelude.h"
pthread_key_t key;
int cleaned;
void dtor(void *v) { cleaned = (int)(long)v; }
void *worker(void *arg) {
  pthread_setspecific(key, (void *)7);
  return 0;
}
int main(void) {
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(cleaned == 7);
  return 0;
}
