// seqc: --method kiss --ts 0 --property race=count
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
struct pair { int a; int b; };
pthread_mutex_t m;
int count;
void *t(void *arg) { struct pair *p = (struct pair *)arg; pthread_mutex_lock(&m); p->a = p->a + 1; count = count + 1; pthread_mutex_unlock(&m); p->b = 2; return 0; }
void __VERIFIER_atomic_bump(void) { count = count + 1; }
int main(void) { struct pair pr = { 0, 0 }; pthread_t x; pthread_create(&x, 0, t, &pr); __VERIFIER_atomic_bump(); pthread_mutex_lock(&m); pr.a = 3; pthread_mutex_unlock(&m); int v = pr.b; pthread_join(x, 0); __VERIFIER_assert(v == 0 || v == 2); return v; }
