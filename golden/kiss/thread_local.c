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
_Thread_local int tls;
__thread int tls2 = 3;
void *t(void *a) { tls = 1; tls2++; return 0; }
int main(void) { pthread_t x; pthread_create(&x, 0, t, 0); pthread_join(x, 0); return tls + tls2; }
