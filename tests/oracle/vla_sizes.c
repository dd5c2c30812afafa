// expect: successful
/* Variable-length arrays in one thread: a k x 2 array (only the outer
   dimension varies), a k-element array passed to a parameter declared
   `int v[n]` (a pointer), and sizeof of both, for k from 1 to 3. A worker
   adds to a global under a lock meanwhile. Every assertion holds: the
   sizes are k * 8 and k * 4 bytes, and the sum of k ones is k. */
#include "prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
int sum(int n, int v[n]) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 1 && k <= 3);
  int a[k][2];
  assert(sizeof a == k * 2 * sizeof(int));
  assert(sizeof(a) / sizeof(a[0]) == k);
  for (int i = 0; i < k; i++) {
    a[i][0] = i;
    a[i][1] = 1;
  }
  int b[k];
  for (int i = 0; i < k; i++)
    b[i] = a[i][1];
  assert(sum(k, b) == k);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  assert(g == 1);
  pthread_mutex_unlock(&m);
  return 0;
}
