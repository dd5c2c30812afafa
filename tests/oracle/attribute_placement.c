// expect: successful
// Where an attribute stands decides what it changes (gcc): before the
// struct keyword it is the declared objects' (a packed or aligned there
// leaves the struct's layout alone), after the declarator of a typedef
// `packed` is ignored; after the closing brace it is the struct's. A
// reviewer's programs were false bugs when all three packed the struct.
// (CBMC 6 packs them too: this is an oracle program, not a bmc one.)
#include "prelude.h"
typedef struct { char c; int i; } P3 __attribute__((packed));
__attribute__((aligned(16))) struct S { char c; int i; } v;
__attribute__((packed)) struct P2 { char c; int i; };
struct S2 { char c; int i; } __attribute__((packed)) v2;
typedef struct { char c; int i; } __attribute__((packed)) P4;
/* On a member the same: before a struct defined there it is the
   member's (packed places it at offset 1; aligned(16) at 16). */
struct O4 { char c; __attribute__((packed)) struct { char a; int b; } in; };
struct O { char c; __attribute__((aligned(16))) struct { char a; } in; };
struct O5 { char c; struct { char a; int b; } __attribute__((packed)) in; };
int main(void) {
  struct O o;
  __VERIFIER_assert(sizeof(struct O4) == 9);
  __VERIFIER_assert(sizeof(o.in) == 1 && sizeof(struct O) == 32);
  __VERIFIER_assert(sizeof(struct O5) == 6);
  __VERIFIER_assert(sizeof(P3) == 8);
  __VERIFIER_assert(sizeof(struct S) == 8);
  __VERIFIER_assert(sizeof(struct P2) == 8);
  __VERIFIER_assert(sizeof(struct S2) == 5);
  __VERIFIER_assert(sizeof(P4) == 5);
  return 0;
}
