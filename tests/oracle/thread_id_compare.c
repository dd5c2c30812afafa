// expect: failed 20 rounds=1 switches=2
/* glibc's pthread_t is an unsigned long and pthread_key_t an unsigned
   int: programs compare them with == and != (the front end once refused
   that). The thread's own id equals the one its creator got; only the
   last assertion (a thread's id equal to main's) fails. */
#include <pthread.h>
#include <assert.h>
pthread_key_t k1, k2;
pthread_t owner;
void *f(void *a) { owner = pthread_self(); return 0; }
int main(void) {
  pthread_t a = pthread_self(), t;
  assert(a == pthread_self());
  pthread_key_create(&k1, 0); pthread_key_create(&k2, 0);
  assert(k1 != k2);
  pthread_create(&t, 0, f, 0);
  pthread_join(t, 0);
  assert(owner == t);
  assert(owner != a);
  assert(t == a);
  return 0;
}
