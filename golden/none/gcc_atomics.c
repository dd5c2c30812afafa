// seqc: --method none
int v;
int main(void) { int a = __sync_fetch_and_add(&v, 2); int b = __sync_add_and_fetch(&v, 1); int ok = __sync_bool_compare_and_swap(&v, 3, 4); __atomic_store_n(&v, 9, 5); int c = __atomic_load_n(&v, 5); __sync_synchronize(); return a + b + ok + c; }
