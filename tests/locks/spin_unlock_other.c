// expect: found 21
// property: locks
#include <pthread.h>

pthread_spinlock_t s;
int x;

void *t(void *a) {
  pthread_spin_lock(&s);
  x = 1;
  pthread_spin_unlock(&s);
  return 0;
}

int main(void) {
  pthread_spin_init(&s, 0);
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  // Released by main while the thread holds it.
  if (x == 1)
    pthread_spin_unlock(&s);
  return 0;
}
