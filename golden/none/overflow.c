// seqc: --method none --property overflow
// Signed overflow checks: each checked operation gets an assertion at its
// place; the guarded ones keep their guard; unsigned and char arithmetic
// get none.
extern int __VERIFIER_nondet_int(void);
int g;
long long h;

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = a * 2 + g;
    unsigned u = (unsigned)a * 3u;
    signed char c = 100;
    c = c + c;
    int r = a > 0 && b - a < 7;
    int q = a ? g / a : -g;
    h = h * h + (b << 3);
    return r + q % 5;
}
