// seqc: --method none
/* Static initialisers are constants the compiler computes: folded whole
   even when a signed operation in them overflows (gcc wraps, and warns),
   so that the C output stays constant; code keeps such an operation
   unfolded for --property overflow. A case constant converts to the
   controlling type: case -1 matches UINT_MAX. */
#include <assert.h>
#include <limits.h>
int g = INT_MAX + 1 - 1;
int main(void) {
  static int s = 1 << 31 >> 31;
  unsigned u = 0;
  int hit = 0;
  switch (u - 1) { case -1: hit = 1; break; default: break; }
  assert(g == INT_MAX && s == -1 && hit);
  return 0;
}
