// seqc: --method none
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
int (*ops[2])(int, int) = { add, sub };
int apply(int (*f)(int, int), int x) { return f(x, 1); }
int main(void) { int r = apply(ops[1], 5); int (*g)(int, int) = &add; return (*g)(r, 2); }
