/* What the verdict programs use, declared here instead of taken from system
   headers. `assert` expands to glibc's form, which CBMC (run on the input to
   record the expected verdict) and seqc both treat as an assertion. */
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
void *malloc(unsigned long);
void *calloc(unsigned long, unsigned long);
void free(void *);
void *memset(void *, int, unsigned long);
void *memcpy(void *, const void *, unsigned long);
