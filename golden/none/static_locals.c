// seqc: --method none
int counter(void) { static int n; static int init = 5; n++; return n + init; }
int main(void) { counter(); return counter(); }
