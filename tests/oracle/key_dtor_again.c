// expect: successful
/* A destructor that sets its key again gets a second call: POSIX repeats
   the destructor passes while non-NULL values remain (at least
   PTHREAD_DESTRUCTOR_ITERATIONS times). The first call sets the value
   again, the second does not, so the worker ends after exactly two calls
   and main sees calls == 2 after the join. The worker exits through
   pthread_exit, which runs destructors as a return does. */
#include "prelude.h"
pthread_key_t key;
int calls;
void dtor(void *v) {
  calls++;
  if (calls < 2)
    pthread_setspecific(key, v);
}
void *worker(void *arg) {
  pthread_setspecific(key, (void *)1);
  pthread_exit(0);
  return 0;
}
int main(void) {
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(calls == 2);
  return 0;
}
