// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// String literals and char arrays initialised from them.
#include "prelude.h"
int main(void) {
  const char *s = "abc";
  assert(s[1] == 'b' && s[3] == 0);
  char buf[4] = "hi";
  assert(buf[1] == 'i' && buf[2] == 0 && buf[3] == 0);
  return 0;
}
