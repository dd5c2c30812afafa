// seqc: --method none
typedef enum { RED, GREEN = 5, BLUE } color;
typedef unsigned long size_type;
typedef struct node { struct node *next; color c; } node_t;
int main(void) { node_t n = { 0, BLUE }; size_type s = sizeof(node_t); return n.c == 6 && s == 16 ? 0 : 1; }
