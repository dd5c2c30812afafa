// seqc: --method none
typedef long jmp_buf[8];
int setjmp(jmp_buf);
jmp_buf env;
int main(void) { if (setjmp(env)) return 1; return 0; }
