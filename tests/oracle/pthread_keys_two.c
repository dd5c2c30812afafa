// expect: successful
/* Two keys: each holds its own value per thread. Main stores 1 under a
   and 2 under b; the worker stores 3 under b only. Reads of the second
   key must find its own values (a model that read every key as the first
   one would see 1 where 2 is, and 3 where 0 is). */
#include "prelude.h"
pthread_key_t a, b;
long seen_a = -1, seen_b = -1;
void *worker(void *arg) {
  pthread_setspecific(b, (void *)3);
  seen_a = (long)pthread_getspecific(a);
  seen_b = (long)pthread_getspecific(b);
  return 0;
}
int main(void) {
  pthread_key_create(&a, 0);
  pthread_key_create(&b, 0);
  pthread_setspecific(a, (void *)1);
  pthread_setspecific(b, (void *)2);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(seen_a == 0 && seen_b == 3);
  assert((long)pthread_getspecific(a) == 1);
  assert((long)pthread_getspecific(b) == 2);
  return 0;
}
