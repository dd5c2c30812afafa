// seqc: --method none
int main(void) {
  int x = 1;
  static int *p = &x;
  return *p;
}
