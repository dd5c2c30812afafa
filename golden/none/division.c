// seqc: --method none
int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int);
int main(void) { int a = -7, b = 2; int q = a / b, r = a % b; int d = __VERIFIER_nondet_int(); int z = a / d; long l = 10L % 3; __VERIFIER_assert(q == -3 && r == -1); return z + (int)l; }
