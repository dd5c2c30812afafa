// expect: failed 21 rounds=1 switches=3
/* A case label inside a counted loop (Duff's device) enters it past the
   counter's start: the loop runs twice from i = -1, not once, so it has
   no trip count and its site needs two slots (it got one: SUCCESSFUL). */
#include "prelude.h"
int c;
void *w(void *a) { c++; return 0; }
int main() {
  int x = 1;
  int i = -1;
  pthread_t t[4]; int n = 0;
  switch (x) {
  case 0:
    for (i = 0; i < 1; i++) {
  case 1:
      pthread_create(&t[n++], 0, w, 0);
    }
  }
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  assert(c < 2);
  return 0;
}
