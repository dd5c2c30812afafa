// expect: none
// property: memsafety
// The twin of null_before_init: the pointer is set before the reader is
// created, and read only where it is not null.
#include <pthread.h>
#include <stdlib.h>
struct cfg { int a; int b; };
struct cfg *conf, *spare;
void *reader(void *arg) {
  struct cfg *c = spare;
  int v = c != 0 && c->a > 0 ? c->b : 0;
  return (void *)(long)(conf->b + v);
}
int main(void) {
  conf = malloc(sizeof(struct cfg));
  conf->a = 1;
  conf->b = 2;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  return 0;
}
