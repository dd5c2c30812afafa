// seqc: --method none
int printf(const char *, ...);
void exit(int);
int main(void) { int n = printf("%d\\n", 3); if (n < 0) exit(2); return 0; }
