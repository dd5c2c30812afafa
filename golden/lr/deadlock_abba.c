// seqc: --method lal-reps --rounds 2 --property deadlock
#include <pthread.h>

/* Two locks in opposite orders, and a semaphore wait: each blocking
   operation records what its thread waits on, and the end of main's
   final context tests every record. */
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  x++;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  x++;
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
