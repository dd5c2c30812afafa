// deadlock: none
/* Main joins itself: glibc returns EDEADLK (POSIX leaves it undefined),
   so this is no wait, and main returns. */
#include "../oracle/prelude.h"
int main(void) {
  pthread_join(pthread_self(), 0);
  return 0;
}
