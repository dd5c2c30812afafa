// seqc: --method none
int printf(const char *, ...);
int usleep(unsigned);
unsigned sleep(unsigned);
void exit(int);
int main(void) { printf("%d\\n", 3); int r = usleep(10); if (sleep(1) != 0 || r != 0) exit(2); return 0; }
