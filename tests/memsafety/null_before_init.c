// expect: found 10
// property: memsafety
// main creates the reader before it sets the pointer: the reader may
// dereference null.
#include <pthread.h>
#include <stdlib.h>
struct cfg { int a; int b; };
struct cfg *conf;
void *reader(void *arg) {
  return (void *)(long)conf->b;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  conf = malloc(sizeof(struct cfg));
  conf->a = 1;
  conf->b = 2;
  pthread_join(t, 0);
  return 0;
}
