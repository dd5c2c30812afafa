// expect: successful
/* What C promises about main's parameters (C11 5.1.2.2.1): argc is at
   least 0 (seqc looks at 1 to 3), argv[argc] is a null pointer, each
   argv[i] before it points to a string, and envp (a common extension)
   ends with a null pointer. A worker reads the argument count main
   stored. seqc once called main with any argc and a null argv, and the
   first assertion failed with argc = -1: a false bug. */
#include "prelude.h"
int n;
void *worker(void *arg) {
  assert(n >= 1);
  return 0;
}
int main(int argc, char **argv, char **envp) {
  assert(argc >= 0);
  n = argc;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(argv[argc] == 0);
  for (int i = 0; i < argc; i++)
    assert(argv[i] != 0);
  assert(envp[0] == 0);
  pthread_join(t, 0);
  return 0;
}
