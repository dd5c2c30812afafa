// seqc: --method none
int x, y, z, a[4], *p;
int main(void) { x = y + z; a[x] = a[y]; p = &a[1]; *p = *p + x; if (x && y) z = 1; z = x ? y : 0; return x + y; }
