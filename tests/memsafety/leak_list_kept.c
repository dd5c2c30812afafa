// expect: none
// property: memtrack
// lal-reps via cbmc: slow
// Two threads push a node each onto a shared list under a lock; main
// pushes a third first. Every node stays reachable from the head
// through the nodes before it (up to two links away), so nothing leaks.
#include <pthread.h>
#include <stdlib.h>

struct node { int v; struct node *next; };
struct node *head;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *push(void *arg) {
  struct node *n = malloc(sizeof *n);
  n->v = (int)(long)arg;
  pthread_mutex_lock(&m);
  n->next = head;
  head = n;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  struct node *first = malloc(sizeof *first);
  first->v = 0;
  first->next = 0;
  head = first;
  pthread_create(&a, 0, push, (void *)1);
  pthread_create(&b, 0, push, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
