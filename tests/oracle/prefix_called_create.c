// expect: failed 21 rounds=1 switches=2
/* A call that may create a thread ends main's sequential prefix
   (ir::prefix), here through a function pointer and a second call.
   set() runs once before the create and once after, so it is not a
   function of the prefix either: its second run can lose the thread's
   write. */
#include "prelude.h"
int x;
void *writer(void *arg) {
  x = 5;
  return 0;
}
static void start(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
}
static void start_indirect(void) { start(); }
static void nothing(void) {}
static void set(void) {
  x = 1;
  assert(x == 1);
}
int main(void) {
  void (*fp)(void) = x ? nothing : start_indirect;
  set();
  fp();
  set();
  return 0;
}
