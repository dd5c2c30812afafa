// seqc: --method none
int printf(const char *, ...);
int main(void) { int n = 0; printf("abc%n", &n); return n; }
