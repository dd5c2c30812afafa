// constant:
// written:
// strings: constant
// main-locals: constant lims lim; written late inner counter
/* Main's locals declared at its top level before the first create live
   as long as the run: the threads read lims and lim through pointers,
   and nothing writes them after the prefix. late is declared after the
   create; inner's declaration is in a nested block (its lifetime ends
   there); counter is written after the create. (A struct holding an int
   beside the pointer would make lim count as written: its address would
   share a class with an integer, `ReadOnly::analyse`.) */
#include <pthread.h>
void *worker(void *p) {
  const int **l = p;
  return (void *)*l;
}
int main(void) {
  const int *lims[2];
  int lim = 3, counter = 0;
  int *keep = &counter;
  {
    int inner = 1;
    keep = &inner;
    keep = &counter;
  }
  for (int i = 0; i < 2; i++)
    lims[i] = &lim;
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, &lims[i]);
  int late = 0;
  int *lp = &late;
  *lp = 1;
  *keep = 4;
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return counter + late;
}
