// expect: failed 14 rounds=1 switches=0
/* The arguments' bytes are the caller's, so any value: with two
   arguments, the first byte of argv[1] may be 2 (and that is a run). */
#include "prelude.h"
int seen;
void *worker(void *arg) {
  seen = 1;
  return 0;
}
int main(int argc, char *argv[]) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (argc == 2)
    assert(argv[1][0] != 2);
  pthread_join(t, 0);
  return 0;
}
