// expect: failed 37 rounds=1 switches=3
/* Pool slots follow how often an allocation runs: main's loop of two
   mallocs needs two slots, and bump's escaping local needs one per call
   (two calls). Too few slots would stop main before the assertion. */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

int *ps[2];

void *inc(void *a)
{
  int *p = a;
  *p = *p + 1;
  return 0;
}

int bump(int v)
{
  int y = v;
  int *q = &y;
  *q = *q + 1;
  return y;
}

int main(void)
{
  pthread_t th[2];
  for (int i = 0; i < 2; i++) {
    int *q = malloc(sizeof(int));
    *q = bump(0) + bump(1) - 3;
    ps[i] = q;
    pthread_create(&th[i], 0, inc, q);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], 0);
  assert(*ps[0] + *ps[1] != 2);
  return 0;
}
