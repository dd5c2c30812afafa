// expect: successful
/* strtol and strtoul as C11 7.22.1.4 has them (the model was checked
   against glibc on 204 strings and bases): the end pointer stops at the
   first character that is no digit of the base, and stays at the string
   when there is none; base 0 reads a prefix; a minus sign negates an
   unsigned result. A worker parses its share and adds it under a lock;
   main checks the total after the join. (Short strings: the model's loops
   are bounded like the program's.) */
#include "prelude.h"
long strtol(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
void *worker(void *arg) {
  char *e;
  const char *s = "f";
  long v = strtol(s, &e, 16);
  assert(v == 15 && e == s + 1);
  pthread_mutex_lock(&m);
  total += v;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  char *e;
  const char *n = "-";
  assert(strtol(n, &e, 0) == 0 && e == n);
  assert(strtoul("-1", 0, 10) == (unsigned long)-1);
  assert(strtol("9", 0, 8) == 0 && strtol("z", 0, 36) == 35);
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  total += strtol("7", 0, 10);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(total == 22);
  return 0;
}
