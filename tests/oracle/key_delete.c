// expect: successful
/* pthread_key_delete returns EINVAL for a key that was never made and 0
   for one that was; a key number is an unsigned int (42 converts). */
#include "prelude.h"
int main(void) { pthread_key_t k; assert(pthread_key_delete(42) == EINVAL); pthread_key_create(&k, 0); assert(pthread_key_delete(k) == 0); return 0; }
