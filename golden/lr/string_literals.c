// seqc: --method lal-reps --rounds 2
typedef unsigned long pthread_t;
typedef union { char __size[56]; long __align; } pthread_attr_t;
int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int printf(const char *, ...);
void __VERIFIER_assert(int);
/* The literal printf prints is dropped with the call (no object); the
   one whose address is kept in a shared pointer is shared memory with
   round copies, like any global. */
const char *msg;
void *t(void *arg) { printf("thread %d\n", 1); msg = "done"; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); pthread_join(a, 0); printf("joined\n"); __VERIFIER_assert(msg[0] == 'd'); return 0; }
