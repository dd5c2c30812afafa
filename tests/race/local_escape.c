// expect: race main::v
/* A local of main whose address is handed to the thread is shared
   memory: the thread writes it while main reads it. */
#include "../oracle/prelude.h"
void *t(void *arg) {
  int *p = arg;
  *p = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  int v = 0;
  pthread_create(&h, 0, t, &v);
  int w = v;
  pthread_join(h, 0);
  return w;
}
