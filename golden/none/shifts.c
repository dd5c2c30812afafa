// seqc: --method none
int __VERIFIER_nondet_int(void);
int main(void) { int n = __VERIFIER_nondet_int(); unsigned u = 1u << 31; int s = 1 << 3; int v = s << n; unsigned w = u >> n; return (int)(u + w) + v; }
