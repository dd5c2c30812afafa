// seqc: --method lal-reps --rounds 2
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
sem_t s;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_spinlock_t sp;
pthread_barrier_t b;
int x, y;
void *worker(void *arg) {
  pthread_rwlock_wrlock(&rw);
  x = x + 1;
  pthread_rwlock_unlock(&rw);
  pthread_spin_lock(&sp);
  y = y + 1;
  pthread_spin_unlock(&sp);
  sem_post(&s);
  pthread_barrier_wait(&b);
  return 0;
}
int main(void) {
  pthread_t t;
  int v;
  sem_init(&s, 0, 0);
  pthread_spin_init(&sp, PTHREAD_PROCESS_PRIVATE);
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&t, 0, worker, 0);
  sem_wait(&s);
  pthread_rwlock_rdlock(&rw);
  assert(x == 1);
  pthread_rwlock_unlock(&rw);
  pthread_barrier_wait(&b);
  sem_getvalue(&s, &v);
  assert(v == 0 && y == 1);
  pthread_join(t, 0);
  return 0;
}
