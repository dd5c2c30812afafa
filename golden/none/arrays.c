// seqc: --method none
void __VERIFIER_assert(int);
int a[3][4] = { { 1, 2 }, [2] = { 9 } };
char s[] = "hi";
int main(void) { int i, sum = 0; for (i = 0; i < 3; i++) sum += a[i][0]; __VERIFIER_assert(sum == 10 && sizeof(s) == 3); return 0; }
