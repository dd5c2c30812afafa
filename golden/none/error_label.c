// seqc: --method none
int __VERIFIER_nondet_int(void);
int main(void) { if (__VERIFIER_nondet_int()) { goto ERROR; } return 0; ERROR: return 1; }
