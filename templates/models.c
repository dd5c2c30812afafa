/* seqc's models of C library functions, C that the front end appends to
   the input as a system header when the input calls one of them and does
   not define it. Loops here are bounded like the input's own loops; each
   read and write is a step of the calling thread, as in a real libc.
   SIZE_T is the data model's size_t. */
/* model: strlen */
SIZE_T strlen(const char *s) { SIZE_T n = 0; while (s[n] != 0) n++; return n; }
/* model: strcpy */
char *strcpy(char *d, const char *s) { SIZE_T i = 0; while ((d[i] = s[i]) != 0) i++; return d; }
/* model: strncpy */
char *strncpy(char *d, const char *s, SIZE_T n) { SIZE_T i = 0; for (; i < n && s[i] != 0; i++) d[i] = s[i]; for (; i < n; i++) d[i] = 0; return d; }
/* model: strcat */
char *strcat(char *d, const char *s) { SIZE_T i = 0, j = 0; while (d[i] != 0) i++; while ((d[i + j] = s[j]) != 0) j++; return d; }
/* model: strcmp */
int strcmp(const char *a, const char *b) { SIZE_T i = 0; while (a[i] != 0 && a[i] == b[i]) i++; return (unsigned char)a[i] - (unsigned char)b[i]; }
/* model: strncmp */
int strncmp(const char *a, const char *b, SIZE_T n) { SIZE_T i = 0; if (n == 0) return 0; while (i + 1 < n && a[i] != 0 && a[i] == b[i]) i++; return (unsigned char)a[i] - (unsigned char)b[i]; }
/* model: memcmp */
int memcmp(const void *a, const void *b, SIZE_T n) { const unsigned char *p = a, *q = b; SIZE_T i; for (i = 0; i < n; i++) if (p[i] != q[i]) return p[i] - q[i]; return 0; }
/* model: abs */
int abs(int x) { return x < 0 ? -x : x; }
/* model: labs */
long labs(long x) { return x < 0 ? -x : x; }
/* model: rand */
int rand(void) { int r = __VERIFIER_nondet_int(); __VERIFIER_assume(r >= 0); return r; }
/* model: time */
long time(long *t) { long v = __VERIFIER_nondet_long(); if (t) *t = v; return v; }
/* model: strerror */
char *strerror(int e) { return "error"; }
