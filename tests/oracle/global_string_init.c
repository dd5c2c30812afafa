// expect: failed 17 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* A global struct whose initialiser holds a string literal (as driver
   tables do: `.name = "nvram"`). The worker renames the device; main
   checks the first letter before the join. The failure: the worker runs
   between main's create and main's read. Round 1: main creates; the
   worker writes; round 2: main reads 'x' and fails. */
#include "prelude.h"
struct dev { int minor; const char *name; };
struct dev d = { 144, "nvram" };
void *worker(void *arg) {
  d.name = "xnv";
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(d.name[0] == 'n');
  pthread_join(t, 0);
  return 0;
}
