// expect: failed 19 rounds=1 switches=2 (main's round 2 below is its final context: free)
/* strcpy and strlen run as seqc's library models: each character is a
   step of the calling thread. The worker copies "ab" into buf; main
   measures it before the join. The failure: strlen is 1, so main ran
   between the worker's first and second character. Round 1: main
   creates; the worker writes 'a'; round 2: main reads "a" and fails. */
#include "prelude.h"
char *strcpy(char *, const char *);
unsigned long strlen(const char *);
char buf[4];
void *worker(void *arg) {
  strcpy(buf, "ab");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  unsigned long n = strlen(buf);
  assert(n != 1);
  pthread_join(t, 0);
  return 0;
}
