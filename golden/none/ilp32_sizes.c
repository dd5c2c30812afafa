// seqc: --method none --data-model ILP32
int main(void) { long l = sizeof(long); unsigned long u = 4294967295ul; u = u + 1; return (int)(l + sizeof(void *) + u); }
