// seqc: --method none
int main(void) {
  int x = 1;
  extern int *p = &x;
  return *p;
}
