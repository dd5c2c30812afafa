/* What the oracle test programs use, declared here instead of taken from
   system headers (the front end maps these names to its own operations). */
typedef unsigned long pthread_t;
typedef union { char size[40]; long align; } pthread_mutex_t;
typedef union { char size[48]; long long align; } pthread_cond_t;
#define PTHREAD_MUTEX_INITIALIZER { { 0 } }
#define PTHREAD_COND_INITIALIZER { { 0 } }
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void pthread_exit(void *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
void *malloc(unsigned long);
void __VERIFIER_assert(int);
void __VERIFIER_assume(int);
int __VERIFIER_nondet_int(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
#define assert(e) __VERIFIER_assert(e)
