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
int count;
pthread_mutex_t m = { { 0 } };
void *worker(void *arg) { pthread_mutex_lock(&m); count = count + 1; pthread_mutex_unlock(&m); return arg; }
int main(void) { pthread_t t[2]; int i; for (i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0); for (i = 0; i < 2; i++) pthread_join(t[i], 0); __VERIFIER_assert(count == 2); return 0; }
