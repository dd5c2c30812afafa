// expect: none
// property: locks,locks-exit
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_spinlock_t s;
int x;

// The safe twin of exit_holding: every path releases what it took,
// pthread_exit's included.
void *t(void *a) {
  pthread_mutex_lock(&m);
  pthread_spin_lock(&s);
  x++;
  pthread_spin_unlock(&s);
  if (x > 1) {
    pthread_mutex_unlock(&m);
    pthread_exit(0);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_spin_init(&s, 0);
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
