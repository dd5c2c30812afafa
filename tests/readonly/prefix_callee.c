// constant:
// written: x y
// strings: constant
/* A call that may create a thread ends the prefix, through other calls
   and through a function pointer (which may reach any function whose
   address is taken). */
#include <pthread.h>
int x, y;
void *worker(void *a) { return a; }
static void start(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
}
static void start_twice(void) { start(); }
static void nothing(void) {}
void (*fp)(void) = nothing;
int main(void) {
  fp = y ? nothing : start_twice;
  fp();
  x = 1;
  y = 2;
  return x + y;
}
