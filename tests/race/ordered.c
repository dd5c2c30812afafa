// expect: no-race
/* Create and join order every access: main writes before the thread
   exists and after it has returned. */
#include "../oracle/prelude.h"
int x = 0;
void *t(void *arg) {
  x = x + 1;
  return 0;
}
int main(void) {
  pthread_t h;
  x = 1;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  x = 3;
  return x;
}
