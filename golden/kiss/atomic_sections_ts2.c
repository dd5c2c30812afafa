// seqc: --method kiss --ts 2
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
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x, y;
void __VERIFIER_atomic_swap(void) { int t = x; x = y; y = t; }
void *t1(void *a) { __VERIFIER_atomic_begin(); x = x + 1; y = y + 1; __VERIFIER_atomic_end(); __VERIFIER_atomic_swap(); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, t1, 0); __VERIFIER_assert(x == y); pthread_join(t, 0); return 0; }
