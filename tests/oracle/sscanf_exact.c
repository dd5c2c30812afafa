// expect: successful
/* sscanf as C11 7.21.6.2 has it. Before any thread: a vertical tab in
   the format is white space, a matching failure gives 0 and an input
   failure before the first conversion gives EOF. In a worker: the
   pointers are evaluated before the scan (&a[i] is &a[0], though the scan
   then sets i to 1). main joins and reads the flag the worker set.
   (Short strings: the scan's loops are bounded like the program's.) */
#include "prelude.h"
int sscanf(const char *, const char *, ...);
int ok;
void *worker(void *arg) {
  int i = 0, a[2] = {0, 0};
  sscanf("1 7", "%d %d", &i, &a[i]);
  ok = i == 1 && a[0] == 7 && a[1] == 0;
  return 0;
}
int main(void) {
  int x, y;
  assert(sscanf("1\v2", "%d\v%d", &x, &y) == 2 && y == 2);
  assert(sscanf("a", "a%d", &x) == -1 && sscanf("b", "%d", &x) == 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(ok == 1);
  return 0;
}
