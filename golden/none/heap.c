// seqc: --method none
typedef unsigned long size_t;
void *malloc(size_t);
void *calloc(size_t, size_t);
void free(void *);
void __VERIFIER_assert(int);
struct s { int a; int b[2]; };
int main(void) { struct s *p = malloc(sizeof(struct s)); int *q = calloc(4, sizeof(int)); p->a = q[3]; __VERIFIER_assert(p->a == 0); free(q); free(p); return 0; }
