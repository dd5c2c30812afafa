// constant: k1 k2 msg tbl_of_strings
// written: w_int w_memcpy w_bytes w_arg w_ret w_key w_fp w_atomic w_init w_long w_cas_expected w_struct_copy w_cond
// strings: constant
/* Each w_ global is written only through an address that travels by one
   channel a points-to analysis could miss: integer arithmetic, memcpy,
   a byte-by-byte copy of a pointer, a thread argument, a thread's return
   value, a thread-specific value, a call through a function pointer, an
   atomic operation, a global initialiser, a pointer kept in a long, the
   "expected" slot of a compare-exchange, a struct holding a pointer
   copied whole, a pointer to a pointer chosen by ?: against a null
   pointer. The k globals and the strings are only read. */
#include <pthread.h>
#include <string.h>

const int k1[3] = {1, 2, 3};
int k2 = 5;
const char *msg = "hello";
const char *tbl_of_strings[2] = {"a", "bc"};

int w_int[2], w_memcpy[2], w_bytes, w_arg, w_ret, w_key, w_fp, w_atomic,
    w_init, w_long, w_cas_expected, w_struct_copy, w_cond;
int *holder;
int *init_ptr = &w_init;
long kept;
pthread_key_t key;
struct holder { int *p; } h1, h2;

void setter(int *p) { *p = 1; }

void *worker(void *arg) {
  *(int *)arg = k1[1] + k2;
  return &w_ret;
}

void *idle(void *a) { return a; }
int main(void) {
  /* Writes in main before a thread exists would not count (ir::prefix). */
  pthread_t idle_t;
  pthread_create(&idle_t, 0, idle, 0);
  long a = (long)w_int;
  *(int *)(a + sizeof(int)) = 7;
  int seven = 7;
  memcpy(&w_memcpy[1], &seven, sizeof seven);
  int *src = &w_bytes, *pp = 0;
  for (unsigned i = 0; i < sizeof pp; i++)
    ((char *)&pp)[i] = ((char *)&src)[i];
  *pp = 1;
  pthread_t t;
  pthread_create(&t, 0, worker, &w_arg);
  void *r;
  pthread_join(t, &r);
  *(int *)r = 2;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, &w_key);
  *(int *)pthread_getspecific(key) = 3;
  void (*fp)(int *) = setter;
  fp(&w_fp);
  __atomic_store_n(&w_atomic, 1, __ATOMIC_SEQ_CST);
  *init_ptr = 4;
  kept = (long)&w_long;
  *(int *)kept = 5;
  int *exp = &w_cas_expected, des = 0;
  int cell = 0;
  int *cellp = &cell;
  __atomic_compare_exchange_n(&cellp, &exp, &des, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  *exp = 6;
  h1.p = &w_struct_copy;
  h2 = h1;
  *h2.p = 8;
  holder = &w_cond;
  int **pp2 = k2 ? 0 : &holder;
  **pp2 = 9;
  int sum = k1[0] + k2 + msg[0] + tbl_of_strings[1][1];
  return sum == 0;
}
