// seqc: --method none
void __VERIFIER_assert(int);
int g[4];
int main(void) { int *p = g; int *q = p + 2; *q = 5; long d = q - p; p[1] = 3; int **pp = &p; (*pp)[3] = 7; __VERIFIER_assert(g[2] == 5 && d == 2 && g[3] == 7); return 0; }
