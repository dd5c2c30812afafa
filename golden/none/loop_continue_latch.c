// seqc: --method none
int f(int);
int g(int x) { return x; }
int main(void) { int i, s = 0; for (i = 0; i < 5; i += g(1)) { if (i & 1) continue; s += i; } return s; }
