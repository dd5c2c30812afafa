// seqc: --method none
void reach_error(void) {}
void abort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) { int x = __VERIFIER_nondet_int(); unsigned y = __VERIFIER_nondet_uint(); __VERIFIER_assume(x > 0 && y < 10u); __VERIFIER_assert(x + (int)y > 0); if (x == 5) reach_error(); return 0; }
