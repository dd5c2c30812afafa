// expect: successful
/* main blocks at the join of f (KISS stops it there), and f then reads
   main's local v, which is alive: main has not returned. KISS's C output
   ran f after main's frame had ended (exit 3 via CBMC). */
#include <assert.h>
#include <pthread.h>

void *f(void *a) {
  int x = *(int *)a;
  assert(x == 1);
  return 0;
}

int main(void) {
  int v = 1;
  pthread_t t;
  pthread_create(&t, 0, f, &v);
  pthread_join(t, 0);
  return 0;
}
