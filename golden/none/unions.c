// seqc: --method none
union u { int i; unsigned char b[4]; };
int main(void) { union u x; x.i = 0; x.b[0] = 1; return x.i; }
