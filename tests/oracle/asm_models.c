// expect: failed 40 rounds=1 switches=0
// The inline assembly seqc gives a meaning: xchg swaps its two operands,
// a move between a register and memory reads or writes it (readl and
// writel), an empty template ties an output to its input, fences and
// port output change nothing, and port input reads any value: the last
// assertion fails for some device. (CBMC 6 gives these templates no
// meaning: this is an oracle program, not a bmc one.)
#include "prelude.h"
long head = 7;
unsigned int reg = 9;
static unsigned int readl(const volatile void *addr) {
  unsigned int ret;
  __asm__ volatile("movl %1,%0" : "=r"(ret) : "m"(*((unsigned int volatile *)addr)) : "memory");
  return ret;
}
static void writel(unsigned int val, volatile void *addr) {
  __asm__ volatile("movl %0,%1" : : "r"(val), "m"(*((unsigned int volatile *)addr)) : "memory");
}
static unsigned char inb(unsigned short p) {
  unsigned char v;
  __asm__ volatile("inb %w1, %b0" : "=a"(v) : "Nd"(p));
  return v;
}
static void outb(unsigned char v, unsigned short p) {
  __asm__ volatile("outb %b0, %w1" : : "a"(v), "Nd"(p));
}
int main(void) {
  long ret = 3;
  asm volatile("" "xchg" "q %q0, %1\n" : "+r"(ret), "+m"(head) : : "memory", "cc");
  assert(ret == 7 && head == 3);
  asm volatile("sfence" ::: "memory");
  asm volatile("rep; nop");
  int a = 4, b;
  asm("" : "=r"(b) : "0"(a));
  assert(b == 4);
  assert(readl(&reg) == 9);
  writel(4, &reg);
  assert(reg == 4 && readl(&reg) == 4);
  outb(1, 0x80);
  assert(inb(0x60) != 3);
  return 0;
}
