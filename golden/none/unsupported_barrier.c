// seqc: --method none
typedef int pthread_barrier_t;
int pthread_barrier_wait(pthread_barrier_t *);
pthread_barrier_t b;
int main(void) { pthread_barrier_wait(&b); return 0; }
