// constant:
// written:
// strings: constant
// main-locals: written args
/* When main may leave by pthread_exit (here from a function it calls),
   its locals can die while the threads run: none counts as lasting. */
#include <pthread.h>
struct arg { int id; };
void *worker(void *p) {
  struct arg *a = p;
  return (void *)(long)a->id;
}
static void leave(void) { pthread_exit(0); }
int main(void) {
  struct arg args[1];
  args[0].id = 1;
  pthread_t t;
  pthread_create(&t, 0, worker, &args[0]);
  leave();
  return 0;
}
