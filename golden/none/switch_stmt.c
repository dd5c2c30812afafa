// seqc: --method none
int __VERIFIER_nondet_int(void);
int main(void) { int x = __VERIFIER_nondet_int(), r = 0; switch (x) { case 1: r = 10; case 2: r++; break; case 3 ... 5: r = 3; break; default: r = -1; } return r; }
