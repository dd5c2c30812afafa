// expect: successful
/* A thread that blocks keeps its frame: g may read f's local v after f
   blocked for good on m (main holds it), and v is still 4 then. KISS
   stops a blocked thread by leaving its frames, so its C output let
   CBMC read v's dead object (a trace that did not replay, exit 3);
   escaping locals now live on the heap there. */
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int out, blocked;
void *g(void *a) {
  pthread_mutex_lock(&m2);
  out = *(int *)a;
  pthread_mutex_unlock(&m2);
  return 0;
}
void *f(void *a) {
  int v = 4;
  pthread_t t;
  pthread_create(&t, 0, g, &v);
  blocked = 1;
  pthread_mutex_lock(&m);   /* main holds m for good: f blocks here, v stays alive */
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m2);
  pthread_create(&t, 0, f, 0);
  if (!blocked) return 0;
  pthread_mutex_unlock(&m2);
  pthread_mutex_lock(&m2);
  assert(out == 0 || out == 4);
  return 0;
}
