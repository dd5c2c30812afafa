// expect: failed 28 rounds=1 switches=2 (main's final context is free)
/* A worker reads its share from a constant string with sscanf ("%d:%d"
   gives 3 and 4, and the count 2; atoi is checked too) and adds it to a total under a lock.
   main checks the total before the join: 0 if the worker has not run,
   7 if it has. sscanf is exact: the second assertion (the worker's) never
   fails; the failure is main's, which needs the worker to run between
   main's create and main's read. */
#include "prelude.h"
int sscanf(const char *, const char *, ...);
int atoi(const char *);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *worker(void *arg) {
  int a = 0, b = 0;
  int n = sscanf(" 3:4", "%d:%d", &a, &b);
  assert(n == 2 && a + b == 7 && sscanf("x", "%d", &a) == 0 && atoi(" -2") == -2);
  pthread_mutex_lock(&m);
  total = total + a + b;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int v = total;
  pthread_mutex_unlock(&m);
  assert(v != 7);
  pthread_join(t, 0);
  return 0;
}
