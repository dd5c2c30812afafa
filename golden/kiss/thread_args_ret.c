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
void pthread_exit(void *);
pthread_t pthread_self(void);
int pthread_equal(pthread_t, pthread_t);
struct arg { int in; int out; };
void *work(void *p) { struct arg *a = (struct arg *)p; a->out = a->in * 2; if (a->in > 100) pthread_exit((void *)1); return (void *)(long)a->out; }
int main(void) { pthread_t t; struct arg a = { 21, 0 }; void *r; pthread_create(&t, 0, work, &a); pthread_join(t, &r); __VERIFIER_assert((long)r == 42 && pthread_equal(pthread_self(), pthread_self())); return 0; }
