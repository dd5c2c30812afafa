// seqc: --method none
void __VERIFIER_assert(int);
int main(void) { unsigned char a = 200, b = 100; int s = a + b; unsigned short m = 65535; int p = m * m; signed char c = -1; unsigned int k = c; __VERIFIER_assert(s == 300 && k == 4294967295u); return p; }
