// expect: found 12
// property: memsafety
// Two threads bump a shared top without a lock and write the cell above
// it. One after the other, the second writes cells[4], one past the end;
// a lost update (both read 2) keeps both inside.
#include <pthread.h>
int cells[4];
int top = 2;
void *bump(void *arg) {
  int t = top;
  top = t + 1;
  cells[t + 1] = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, bump, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
