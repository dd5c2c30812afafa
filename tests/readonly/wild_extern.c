// constant:
// written: g k s_only_read
// strings: written
/* A pointer an external function returns (called through a pointer, as
   seqc allows) may point anywhere: a write through it may change any
   object, even one whose address no statement takes. */
int g, k = 3, s_only_read = 4;
int *somewhere(void);
int main(void) {
  int *(*f)(void) = somewhere;
  int *p = f();
  *p = 1;
  return g + k + s_only_read + "x"[0];
}
