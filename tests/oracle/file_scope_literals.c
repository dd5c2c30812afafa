// expect: failed 29 rounds=1 switches=2
/* File-scope compound literals are objects of static storage (C11
   6.5.2.5p5), one per literal, that the program may write through the
   pointers made from them. A block-scope static gets a global named
   after its function (f__x); an input global of that name declared
   later is another object. */
#include "prelude.h"
struct P {
    int x, y;
};
struct P *gp = &(struct P){1, 2};
int *arr = (int[]){10, 20, 30};
const char *names[] = {(const char[]){"ab"}, "cd"};
int bump(void) {
    static int x = 1;
    return x++;
}
int bump__x;
void *t(void *a) {
    gp->y += arr[1];
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    bump();
    assert(bump__x == 0 && bump() == 2);
    assert(names[0][1] == 'b' && sizeof((int[]){1, 2, 3}) == 3 * sizeof(int));
    assert(gp->y == 2);
    pthread_join(h, 0);
    assert(gp->y == 22 && gp->x == 1);
    return 0;
}
