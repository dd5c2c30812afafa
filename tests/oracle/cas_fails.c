// expect: failed 23 rounds=1 switches=2
/* A compare-exchange that fails returns false (and C11's writes the value
   it found into *expected): when the thread stores 1 first, main's
   exchange fails with e == 1 and the assertion fails (main's own
   __atomic_compare_exchange_n has failed too, finding 3). Lal-Reps
   once read the comparison again after the failure had written *expected,
   so every exchange "succeeded": SUCCESSFUL on every route. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int y = 3;

void *t(void *a) { atomic_store(&x, 1); return 0; }

int main(void) {
  pthread_t a;
  int e = 0, f = 5;
  int r = __atomic_compare_exchange_n(&y, &f, 7, 0, 5, 5);
  pthread_create(&a, 0, t, 0);
  if (!atomic_compare_exchange_strong(&x, &e, 2))
    assert(e != 1 || r || f != 3);
  pthread_join(a, 0);
  return 0;
}
