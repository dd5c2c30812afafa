// expect: successful
/* pthread keys hold one value per thread. Main stores 7 under the key;
   the worker reads its own value (NULL: a new thread's values start
   empty), stores 5 and publishes what it read. Main's value stays 7
   whatever the order, so no run fails; a key shared between threads
   would make both assertions fail. */
#include "prelude.h"
typedef unsigned int pthread_key_t;
int pthread_key_create(pthread_key_t *, void (*)(void *));
void *pthread_getspecific(pthread_key_t);
int pthread_setspecific(pthread_key_t, const void *);
pthread_key_t key;
long seen = -1;
void *worker(void *arg) {
  long v = (long)pthread_getspecific(key);
  pthread_setspecific(key, (void *)5);
  seen = v;
  return 0;
}
int main(void) {
  pthread_key_create(&key, 0);
  pthread_setspecific(key, (void *)7);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(seen == 0);
  assert((long)pthread_getspecific(key) == 7);
  return 0;
}
