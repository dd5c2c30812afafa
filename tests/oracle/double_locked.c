// expect: successful
/* The twin of double_lost_update.c: the read and the write are one
   critical section, so both updates land. Conversions both ways are
   exact here: two halves, back to int, are what the integer count says;
   -0.0 equals 0.0. */
#include "prelude.h"
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double total = 0.0;
float ftotal = 0.0f;
int count = 0;
void *add(void *arg) {
  pthread_mutex_lock(&m);
  double t = total;
  total = t + 0.5;
  ftotal = ftotal + 0.25f;
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 1.0);
  assert((int)(total * 2.0) == count);
  assert(ftotal == 0.5f && (double)ftotal == total / 2.0);
  double z = total - 1.0;
  assert(-z == 0.0);
  return 0;
}
