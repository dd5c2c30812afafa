/* A sequential program for `seqc check --method none`: the sum of the
   first n numbers overflows a signed char once n reaches 16 (1 + ... + 16
   = 136 > 127), well inside the loop bound. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
extern void __VERIFIER_assume(int);

signed char sum(int n) {
  signed char s = 0;
  for (int i = 1; i <= n; i++)
    s += i;
  return s;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 20);
  __VERIFIER_assert(sum(n) >= 0);
  return 0;
}
