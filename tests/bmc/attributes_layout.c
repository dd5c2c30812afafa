// run: --unwind 1 | --unwind 2 | SUCCESSFUL
// GCC attributes seqc models: `mode` makes int8_t 8 bits wide (it wraps
// at 127) and u_int16_t 16 bits; `packed` and `aligned` change sizes and
// offsets as gcc lays them out (checked against gcc and CBMC).
#include "prelude.h"
void __VERIFIER_assert(int c) { if (!c) assert(0); }
typedef int int8_t __attribute__ ((__mode__ (__QI__)));
typedef unsigned int u_int16_t __attribute__ ((__mode__ (__HI__)));
struct p { char c; int x; } __attribute__((packed));
struct q { char c; int x __attribute__((aligned(8))); };
struct r { char c; } __attribute__((aligned(16)));
typedef struct { char c; long l; } __attribute__((packed)) T;
int main(void) {
  int8_t a = 127;
  a++;
  u_int16_t b = 65535;
  b++;
  __VERIFIER_assert(a == -128);
  __VERIFIER_assert(b == 0);
  __VERIFIER_assert(sizeof(struct p) == 5);
  __VERIFIER_assert(sizeof(struct q) == 16);
  __VERIFIER_assert(sizeof(struct r) == 16);
  __VERIFIER_assert(sizeof(T) == 9);
  __VERIFIER_assert(__builtin_offsetof(struct p, x) == 1);
  __VERIFIER_assert(__builtin_offsetof(struct q, x) == 8);
  return 0;
}
