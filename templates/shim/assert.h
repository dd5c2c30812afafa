/* seqc's <assert.h>: assert(e) is a call seqc recognises, so that the
   property keeps its own location instead of glibc's __assert_fail
   statement expression. As C says (7.2p1), NDEBUG at the point of
   inclusion turns it off. */
#undef assert
#undef assert_perror
/* C11 7.2p3: static_assert expands to _Static_assert (glibc's too). */
#if defined __STDC_VERSION__ && __STDC_VERSION__ >= 201112L && !defined __cplusplus
#undef static_assert
#define static_assert _Static_assert
#endif
#ifdef NDEBUG
#define assert(e) ((void)0)
#ifdef _GNU_SOURCE
#define assert_perror(errnum) ((void)0)
#endif
#else
#define assert(e) __seqc_assert(!!(e))
#ifdef _GNU_SOURCE
/* glibc's: fails when errnum is not 0. */
#define assert_perror(errnum) (!(errnum) ? (void)0 : __seqc_assert(0))
#endif
#endif
void __seqc_assert(int);
