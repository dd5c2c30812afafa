/* seqc's models of C library functions, C that the front end appends to
   the input as a system header when the input calls one of them and does
   not define it. Loops here are bounded like the input's own loops; each
   read and write is a step of the calling thread, as in a real libc.
   SIZE_T is the data model's size_t. No comments inside a model: the text
   is appended after preprocessing. The sscanf pieces are called per
   directive by the front end (lower/calls.rs): white space (the characters
   skipped), an ordinary character (1, or -1 for another one: a matching
   failure, -2 at the end: an input failure), %d/%u (the characters of
   white space, sign and decimal digits consumed, as strtol reads them with
   base 10; -2, -1 as before) and its value (wrapped: C leaves a value out
   of range undefined). atoi and atol read as strtol does with base 10;
   a value out of range wraps (C leaves it undefined). */
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
/* model: sscanf */
int __seqc_scan_ws(const char *s) { int i = 0; while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) i++; return i; }
int __seqc_scan_lit(const char *s, int c) { if (s[0] == 0) return -2; return s[0] == (char)c ? 1 : -1; }
int __seqc_scan_dec(const char *s) { int i = __seqc_scan_ws(s), d; if (s[i] == 0) return -2; if (s[i] == '+' || s[i] == '-') i++; d = i; while (s[i] >= '0' && s[i] <= '9') i++; return i > d ? i : -1; }
unsigned long long __seqc_scan_val(const char *s) { int i = __seqc_scan_ws(s), neg = 0; unsigned long long v = 0; if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; } while (s[i] >= '0' && s[i] <= '9') { v = v * 10 + (unsigned long long)(s[i] - '0'); i++; } return neg ? 0 - v : v; }
/* model: atoi */
int atoi(const char *s) { int i = 0, neg = 0; unsigned long v = 0; while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) i++; if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; } while (s[i] >= '0' && s[i] <= '9') { v = v * 10 + (unsigned long)(s[i] - '0'); i++; } return (int)(neg ? 0 - v : v); }
/* model: atol */
long atol(const char *s) { int i = 0, neg = 0; unsigned long v = 0; while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) i++; if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; } while (s[i] >= '0' && s[i] <= '9') { v = v * 10 + (unsigned long)(s[i] - '0'); i++; } return (long)(neg ? 0 - v : v); }
/* model: strtol */
long strtol(const char *s, char **e, int b) { int i = 0, neg = 0, d, any = 0, over = 0; unsigned long v = 0, lim = (unsigned long)-1 >> 1; if (b < 0 || b == 1 || b > 36) return 0; while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) i++; if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; } if ((b == 0 || b == 16) && s[i] == '0' && (s[i + 1] | 32) == 'x' && ((s[i + 2] >= '0' && s[i + 2] <= '9') || ((s[i + 2] | 32) >= 'a' && (s[i + 2] | 32) <= 'f'))) { i += 2; b = 16; } else if (b == 0) b = s[i] == '0' ? 8 : 10; if (neg) lim = lim + 1; for (;; i++) { if (s[i] >= '0' && s[i] <= '9') d = s[i] - '0'; else if ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') d = (s[i] | 32) - 'a' + 10; else break; if (d >= b) break; any = 1; if (v > (lim - d) / b) over = 1; else v = v * b + d; } if (e) *e = (char *)(any ? s + i : s); if (over) v = lim; return neg ? (long)(0 - v) : (long)v; }
/* model: strtoul */
unsigned long strtoul(const char *s, char **e, int b) { int i = 0, neg = 0, d, any = 0, over = 0; unsigned long v = 0, lim = (unsigned long)-1; if (b < 0 || b == 1 || b > 36) return 0; while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) i++; if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; } if ((b == 0 || b == 16) && s[i] == '0' && (s[i + 1] | 32) == 'x' && ((s[i + 2] >= '0' && s[i + 2] <= '9') || ((s[i + 2] | 32) >= 'a' && (s[i + 2] | 32) <= 'f'))) { i += 2; b = 16; } else if (b == 0) b = s[i] == '0' ? 8 : 10; for (;; i++) { if (s[i] >= '0' && s[i] <= '9') d = s[i] - '0'; else if ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') d = (s[i] | 32) - 'a' + 10; else break; if (d >= b) break; any = 1; if (v > (lim - d) / b) over = 1; else v = v * b + d; } if (e) *e = (char *)(any ? s + i : s); if (over) return lim; return neg ? 0 - v : v; }
