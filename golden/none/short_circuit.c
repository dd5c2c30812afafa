// seqc: --method none
int calls;
int f(int x) { calls++; return x; }
int main(void) { int a = f(0) && f(1); int b = f(1) || f(2); int c = a ? f(3) : f(4); return a + b + c + calls; }
