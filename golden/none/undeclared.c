// seqc: --method none
int main(void) { return y; }
