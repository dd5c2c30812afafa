// seqc: --method kiss --ts 1
typedef unsigned long pthread_t;
typedef union { char __size[40]; long __align; } pthread_mutex_t;
typedef union { char __size[48]; long long __align; } pthread_cond_t;
typedef union { char __size[56]; long __align; } pthread_attr_t;
int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
void __VERIFIER_assert(int);
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int);
int x;
void *inc(void *arg) { x++; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0); pthread_join(a, 0); pthread_join(b, 0); __VERIFIER_assert(x == 2); return 0; }
