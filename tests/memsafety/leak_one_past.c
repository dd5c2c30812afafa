// expect: found 25
// property: memtrack
// The worker allocates two 16-byte buffers and keeps only a pointer one
// past the end of the first (valid C): the second is lost. Such a
// pointer must count for the first object only; objects placed one
// 16-byte gap apart once let it count for the second too (a false safe).
#include <pthread.h>
#include <stdlib.h>

char *end;

void *worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    char *p = malloc(16);
    if (i == 0)
      end = p + 16;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
