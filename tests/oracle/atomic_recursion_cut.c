// expect: failed 30 rounds=1 switches=2
/* Recursion cut by its bound inside an atomic function (thread b's call
   always is; thread a's never). Thread b's run is dropped, thread a's
   atomic step is seen whole. KISS's C output kept the function's name,
   CBMC ran its body as an atomic section, and the cut's return out of it
   made CBMC fail ("atomic sections differ across branches"). */
#include <assert.h>
#include <pthread.h>

int x;

int down(int n) {
  if (n <= 0)
    return 0;
  x++;
  return down(n - 1);
}

void __VERIFIER_atomic_work(int n) { down(n); }

void *t(void *arg) {
  __VERIFIER_atomic_work((int)(long)arg);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, (void *)1L);
  pthread_create(&b, 0, t, (void *)9L);
  assert(x != 1);
  return 0;
}
