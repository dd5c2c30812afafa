// expect: successful
/* Functions used before their definition is read (a reviewer's d1, d2a,
   d2d, d3 and d5 programs; gcc agrees with every assertion):
   - `nondet_pick` is the input's own function, defined below; a call
     before the body took the `nondet_` name for a nondeterministic value
     (false bug);
   - a static function whose address is taken before its body, and the
     strlen model reached only through a pointer, were never lowered: the
     call did nothing (false bug) or skipped an assertion (missed bug);
   - NDEBUG at the inclusion of <assert.h> turns assert off (C11 7.2p1);
     seqc's own header ignored it (false bug);
   - assert_perror (_GNU_SOURCE) was "implicit declaration" (exit 1). */
#define _GNU_SOURCE
#define NDEBUG
#include <assert.h>
static int off(void) { assert(0); assert_perror(1); return 1; }
#undef NDEBUG
#include <assert.h>
#include <string.h>
int nondet_pick(void);
static int add10(int);
int main(void) {
  int v = nondet_pick();
  assert(v == 3);
  int (*f)(int) = add10;
  assert(f(1) == 11);
  size_t (*len)(const char *) = strlen;
  assert(len("a") == 1);
  assert(off() == 1);
  assert_perror(0);
  return 0;
}
int nondet_pick(void) { return 3; }
static int add10(int x) { return x + 10; }
