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
/* Keys, attribute objects, detached threads, mutex kinds (glibc's numbers). */
typedef unsigned int pthread_key_t;
typedef union { char size[56]; long align; } pthread_attr_t;
typedef union { char size[4]; int align; } pthread_mutexattr_t;
int pthread_key_create(pthread_key_t *, void (*)(void *));
int pthread_key_delete(pthread_key_t);
void *pthread_getspecific(pthread_key_t);
int pthread_setspecific(pthread_key_t, const void *);
int pthread_attr_init(pthread_attr_t *);
int pthread_attr_destroy(pthread_attr_t *);
int pthread_attr_setdetachstate(pthread_attr_t *, int);
int pthread_attr_getdetachstate(const pthread_attr_t *, int *);
int pthread_attr_setstacksize(pthread_attr_t *, unsigned long);
int pthread_attr_setscope(pthread_attr_t *, int);
int pthread_mutexattr_init(pthread_mutexattr_t *);
int pthread_mutexattr_settype(pthread_mutexattr_t *, int);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *, int *);
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_detach(pthread_t);
pthread_t pthread_self(void);
void exit(int);
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_CREATE_DETACHED 1
#define PTHREAD_SCOPE_PROCESS 1
#define EPERM 1
#define EBUSY 16
#define EINVAL 22
#define EDEADLK 35
#define ENOTSUP 95
/* Semaphores, read-write locks and spinlocks (glibc's sizes). */
typedef union { char size[32]; long align; } sem_t;
typedef union { char size[56]; long align; } pthread_rwlock_t;
typedef volatile int pthread_spinlock_t;
#define PTHREAD_RWLOCK_INITIALIZER { { 0 } }
#define PTHREAD_PROCESS_PRIVATE 0
int sem_init(sem_t *, int, unsigned int);
int sem_wait(sem_t *);
int sem_trywait(sem_t *);
int sem_post(sem_t *);
int sem_getvalue(sem_t *, int *);
int sem_destroy(sem_t *);
int pthread_rwlock_rdlock(pthread_rwlock_t *);
int pthread_rwlock_wrlock(pthread_rwlock_t *);
int pthread_rwlock_tryrdlock(pthread_rwlock_t *);
int pthread_rwlock_trywrlock(pthread_rwlock_t *);
int pthread_rwlock_unlock(pthread_rwlock_t *);
int pthread_spin_init(pthread_spinlock_t *, int);
int pthread_spin_lock(pthread_spinlock_t *);
int pthread_spin_trylock(pthread_spinlock_t *);
int pthread_spin_unlock(pthread_spinlock_t *);
typedef union { char size[32]; long align; } pthread_barrier_t;
typedef union { char size[4]; int align; } pthread_barrierattr_t;
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
int pthread_barrier_init(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned int);
int pthread_barrier_wait(pthread_barrier_t *);
int pthread_barrier_destroy(pthread_barrier_t *);
