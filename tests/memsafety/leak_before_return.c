// expect: found 18
// property: memtrack
// main returns without joining its thread, and the thread may run to
// its end first: it drops the only pointer to its buffer, which is then
// unreachable where main returns. (The oracle used to run main's return
// in one step with the create before it, and missed this run.)
#include <pthread.h>
#include <stdlib.h>
int *g;
void *t(void *arg) {
  g = malloc(sizeof(int));
  g = 0;
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  return 0;
}
