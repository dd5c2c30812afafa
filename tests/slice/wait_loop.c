#include <pthread.h>
#include <assert.h>

/* A consumer spins on `ready` before it reads `data`. Tracking only
   `data` summarises the spin loop (it reads nothing else tracked), so the
   sliced program lets the consumer through early: a spurious
   counterexample, until refine tracks `ready` and the loop comes back. */
struct msg {
  int data;
  int ready;
  int polls;
};

struct msg m;

void *producer(void *arg) {
  m.data = 42;
  m.ready = 1;
  return 0;
}

void *consumer(void *arg) {
  int spins = 0;
  while (!m.ready) {
    m.polls = m.polls + 1;
    spins = spins + 1;
  }
  assert(m.data == 42);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
