// seqc: --method none
int main(void) { int i = 0, n = 0; while (i < 3) i++; do { n++; } while (n < 2); for (i = 0; i < 4; i++) { if (i == 1) continue; if (i == 3) break; n += i; } for (;;) { n--; if (n < 0) break; } return n; }
