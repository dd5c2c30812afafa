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
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_broadcast(pthread_cond_t *);
int pthread_mutex_init(pthread_mutex_t *, const void *);
int pthread_cond_init(pthread_cond_t *, const void *);
pthread_mutex_t m; pthread_cond_t c; int ready;
void *producer(void *a) { pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_cond_broadcast(&c); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t t; pthread_mutex_init(&m, 0); pthread_cond_init(&c, 0); pthread_create(&t, 0, producer, 0); pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m); return 0; }
