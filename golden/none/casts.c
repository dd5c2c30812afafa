// seqc: --method none
int main(void) { long l = -1; unsigned char c = (unsigned char)l; int i = (int)3000000000u; _Bool b = (_Bool)256; void *v = (void *)&i; int *ip = (int *)v; return c + i + b + *ip; }
