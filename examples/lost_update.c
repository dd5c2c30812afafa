/* Two threads increment x without a lock: the assertion can fail. */
#include <pthread.h>
#include <assert.h>
int x = 0;
void *inc(void *arg) { x++; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
