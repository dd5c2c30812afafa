// seqc: --method lal-reps --rounds 2 --property locks,locks-exit
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_spinlock_t s;
int x;

void *t(void *a) {
  pthread_mutex_lock(&m);
  while (x == 0)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  pthread_spin_lock(&s);
  x++;
  pthread_spin_unlock(&s);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_spin_init(&s, 0);
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  x = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_mutex_destroy(&m);
  return 0;
}
