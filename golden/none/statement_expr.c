// seqc: --method none
int main(void) { int v = ({ int t = 3; t * 2; }); return v; }
