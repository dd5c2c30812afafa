// constant:
// written: g k
// strings: written
/* A nondeterministic pointer may point anywhere. */
void *__VERIFIER_nondet_pointer(void);
int g, k = 3;
int main(void) {
  int *p = __VERIFIER_nondet_pointer();
  *p = 1;
  return g + k + "x"[0];
}
