// run: --unwind 1 | --unwind 2 | FAILED
// CIL names its tags __anonstruct_*; they are real tags (a use after the
// definition must find it). A compiler barrier in asm changes nothing.
#include "prelude.h"
struct __anonstruct_atomic_t_6 {
  int counter;
};
typedef struct __anonstruct_atomic_t_6 atomic_t;
int dec(atomic_t *v) {
  __asm__ volatile("" : : : "memory");
  v->counter = v->counter - 1;
  return v->counter;
}
int main(void) {
  struct __anonstruct_atomic_t_6 a;
  a.counter = 2;
  dec(&a);
  assert(dec(&a) == 1);
  return 0;
}
