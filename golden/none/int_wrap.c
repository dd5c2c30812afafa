// seqc: --method none
void __VERIFIER_assert(int);
int main(void) { int x = 2147483647; x = x + 1; unsigned u = 0; u = u - 1; __VERIFIER_assert(x < 0 && u == 4294967295u); return 0; }
