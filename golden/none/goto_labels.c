// seqc: --method none
int __VERIFIER_nondet_int(void);
int main(void) { int i = 0; again: i++; if (i < 3) goto again; if (__VERIFIER_nondet_int()) goto out; i = 0; out: return i; }
