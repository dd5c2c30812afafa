// seqc: --method none
typedef union { char size[32]; long align; } sem_t;
struct timespec;
int sem_timedwait(sem_t *, const struct timespec *);
sem_t s;
int main(void) { sem_timedwait(&s, 0); return 0; }
