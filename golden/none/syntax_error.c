// seqc: --method none
int main(void) { int x = ; return x; }
