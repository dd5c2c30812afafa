// seqc: --method kiss --ts 1
typedef unsigned long pthread_t;
typedef unsigned int pthread_key_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_key_create(pthread_key_t *, void (*)(void *));
void *pthread_getspecific(pthread_key_t);
int pthread_setspecific(pthread_key_t, const void *);
void *malloc(unsigned long);
void *memset(void *, int, unsigned long);
void *memcpy(void *, const void *, unsigned long);
unsigned long strlen(const char *);
void __VERIFIER_assert(int);
int __VERIFIER_nondet_int(void);
struct S { int a; char name[4]; };
struct S g = { 1, "ab" };
pthread_key_t key;
int *buf;
int n;
void *worker(void *arg) {
  struct S local;
  memcpy(&local, &g, sizeof local);
  pthread_setspecific(key, arg);
  buf[n - 1] = (int)strlen(local.name);
  return pthread_getspecific(key);
}
int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3) return 0;
  buf = malloc(n * sizeof(int));
  memset(buf, 0, n * sizeof(int));
  pthread_key_create(&key, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, &g);
  memset(&g, 0, sizeof g);
  void *r;
  pthread_join(t, &r);
  __VERIFIER_assert(r == &g);
  __VERIFIER_assert(buf[n - 1] != 2);
  return 0;
}
