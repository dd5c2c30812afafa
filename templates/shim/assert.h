/* seqc's <assert.h>: assert(e) is a call seqc recognises, so that the
   property keeps its own location instead of glibc's __assert_fail
   statement expression. */
#undef assert
#define assert(e) __seqc_assert(!!(e))
void __seqc_assert(int);
