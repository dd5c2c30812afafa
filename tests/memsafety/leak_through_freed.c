// expect: found 26
// property: memtrack
// head -> a -> b. A thread frees a but leaves head dangling and b
// linked only from the freed node: b is unreachable (a freed object
// holds no pointer that counts).
#include <pthread.h>
#include <stdlib.h>

struct node { struct node *next; };
struct node *head;

void *drop_first(void *arg) {
  free(head);
  return 0;
}

int main(void) {
  pthread_t t;
  struct node *b = malloc(sizeof *b);
  b->next = 0;
  struct node *a = malloc(sizeof *a);
  a->next = b;
  head = a;
  pthread_create(&t, 0, drop_first, 0);
  pthread_join(t, 0);
  return 0;
}
