// expect: no-race
/* Two threads write different elements of one array and different
   fields of one struct: different memory, no race. Reads never race
   with reads. */
#include "../oracle/prelude.h"
int a[2];
struct s {
  int f;
  int g;
} s;
int r = 7;
void *t(void *arg) {
  a[1] = 1;
  s.g = 1;
  int v = r;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  a[0] = 2;
  s.f = 2;
  int v = r;
  pthread_join(h, 0);
  return v;
}
