// seqc: --method none
void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "verifier_api.c", 3, "reach_error"); }
void abort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) { int x = __VERIFIER_nondet_int(); unsigned y = __VERIFIER_nondet_uint(); __VERIFIER_assume(x > 0 && y < 10u); __VERIFIER_assert(x + (int)y > 0); if (x == 5) reach_error(); return 0; }
