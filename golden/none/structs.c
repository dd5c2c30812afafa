// seqc: --method none
void __VERIFIER_assert(int);
struct point { int x, y; };
struct rect { struct point a, b; unsigned flags : 3; };
int main(void) { struct rect r = { { 1, 2 }, .b = { .y = 4 } }; struct rect *p = &r; p->a.x += 10; r.flags = 5; struct point c = r.a; __VERIFIER_assert(c.x == 11 && p->b.y == 4 && r.b.x == 0); return 0; }
