// expect: failed 34 rounds=1 switches=5
/* Lal-Reps gives each malloc site a pool of slots, one per allocation
   within the bounds. One start routine made by four sites runs its
   loop in four threads: eight allocations. The pool once had unwind x
   threads-per-site slots, so the seventh allocation stopped its thread
   and the sum never reached 8 (a missed bug under bounds that the
   verdict claimed; a reviewer's pool4.c). Now each thread that may run
   the site counts, and each loop around it. */
#include "prelude.h"
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
  int i = 0;
  while (i < 2) {
    int *p = malloc(sizeof(int));
    *p = 1;
    pthread_mutex_lock(&m);
    n += *p;
    pthread_mutex_unlock(&m);
    i++;
  }
  return 0;
}
int main(void) {
  pthread_t a, b, c, d;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_create(&c, 0, t, 0);
  pthread_create(&d, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  pthread_join(d, 0);
  assert(n != 8);
  return 0;
}
