// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// Casts truncate, zero-extend unsigned and sign-extend signed sources.
#include "prelude.h"
int main(void) {
  int x = 0x12345678;
  short s = (short)x;
  assert(s == 0x5678);
  unsigned char uc = (unsigned char)-1;
  assert(uc == 255);
  long long big = (long long)(unsigned int)-1;
  assert(big == 4294967295LL);
  long long neg = (long long)(int)0xffffffffu;
  assert(neg == -1);
  return 0;
}
