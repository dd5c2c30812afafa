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
void *t(void *a) { int *p = (int *)a; *p = *p + 1; return 0; }
int main(void) { int shared = 0; int private = 1; pthread_t x; pthread_create(&x, 0, t, &shared); private = private + 1; shared = shared + private; pthread_join(x, 0); return shared; }
