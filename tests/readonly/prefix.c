// constant: p_direct p_called p_through p_loop k
// written: w_after w_both w_thread
// strings: constant
/* Writes made while main is the only thread (ir::prefix) do not count:
   by name, in a function only the prefix calls, through a pointer, in a
   loop. A function called from the prefix and from a thread (set_both)
   is not in the prefix; nor is anything after the first create. */
#include <pthread.h>
int p_direct, p_called, p_through, p_loop[4], k = 2;
int w_after, w_both, w_thread;
static void set_called(void) { p_called = 1; }
static void set_both(int v) { w_both = v; }
void *worker(void *a) {
  set_both(p_direct + p_called + p_through + p_loop[1] + k);
  w_thread = 1;
  return a;
}
int main(void) {
  p_direct = 1;
  set_called();
  int *q = &p_through;
  *q = 3;
  for (int i = 0; i < 4; i++)
    p_loop[i] = i;
  set_both(0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  w_after = 1;
  pthread_join(t, 0);
  return p_direct + "x"[0];
}
