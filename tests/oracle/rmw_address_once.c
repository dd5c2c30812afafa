// expect: successful
/* A compound assignment or ++ computes its object's address once (C11
   6.5.16.2p3): with p or g changed by another thread, `*p += 1` and
   `a[g]++` update x or y, a[0] or a[1], never read one and write the
   other. seqc read p (g) once for the read and again for the write, so
   a switch in between wrote x from y's value: a false bug on every
   route and in the oracle (a reviewer's y1.c-y6.c). */
#include <assert.h>
#include <pthread.h>
struct S { int n[2]; };
int x = 5, y, g;
int *p = &x;
int a[2] = {5, 0}, b[2] = {5, 0}, c[2] = {5, 0};
struct S s = {{5, 0}};
struct S *sp = &s;
void *t(void *arg) {
  p = &y;
  g = 1;
  return 0;
}
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  *p += 1;
  a[g]++;
  int v = ++b[g];
  int w = (c[g] *= 2);
  sp->n[g] -= 1;
  pthread_join(th, 0);
  assert(x + y == 6);
  assert(a[0] + a[1] == 6);
  assert(b[0] + b[1] == 6 && (v == 6 || v == 1));
  assert(c[0] + c[1] == 10 || c[0] + c[1] == 5);
  assert(w == 10 || w == 0);
  assert(s.n[0] + s.n[1] == 4);
  return 0;
}
