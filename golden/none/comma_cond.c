// seqc: --method none
int main(void) { int x = 1, y; y = (x++, x + 1); y = x > 1 ? y : -y; return y; }
