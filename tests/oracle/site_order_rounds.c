// expect: failed 18 rounds=3 switches=5
/* Threads take turns in creation-site order, as Lal-Reps gives them slots:
   fb (main's second site) comes before c (a site in fa) in every round,
   although c was created first. The bug needs c's write of flag, then
   main's y = 1, then c's read of y, then fb: three rounds in that order
   (the oracle counted two, in creation order, and Lal-Reps at K = 2
   rightly found nothing). */
#include <pthread.h>
#include <assert.h>

int flag = 0, y = 0, x = 0;

void *c(void *a) { flag = 1; if (y == 1) x = 1; return 0; }

void *fa(void *a) { pthread_t tc; pthread_create(&tc, 0, c, 0); return 0; }

void *fb(void *a)
{ assert(x != 1); return 0; }

int main(void)
{
  pthread_t ta, tb;
  pthread_create(&ta, 0, fa, 0);
  if (flag) {
    pthread_create(&tb, 0, fb, 0);
    y = 1;
  }
  return 0;
}
