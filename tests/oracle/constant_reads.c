// expect: failed 26 rounds=2 switches=3
/* Reads of memory no thread writes get no switch point (ir::readonly),
   and reads of memory written only through an address computed as an
   integer still do. The reader sums the digits of a constant string
   (no switch point in the loop) between two reads of digits[1], which
   the writer sets through (int *)((long)digits + sizeof(int)). The
   assertion fails when the writer runs between the two reads: the
   reader needs a second round (it is created first, so in round 1 it
   runs before the writer), and main checks the sum after the joins. */
#include "prelude.h"
const char *text = "12";
int digits[2];
int total;
void *writer(void *arg) {
  long a = (long)digits;
  *(int *)(a + sizeof(int)) = 5;
  return 0;
}
void *reader(void *arg) {
  int x = digits[1];
  int sum = 0;
  for (const char *s = text; *s; s++)
    sum += *s - '0';
  total = sum;
  int y = digits[1];
  assert(x == y);
  return 0;
}
int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  assert(total == 3);
  return 0;
}
