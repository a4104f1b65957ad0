/* rec-jump.c -- direct jumps from one function's code into another's, not
 * to its entry (x86-64 assembly; elsewhere it exits 77):
 *   body(a, b)      a + b; into_mid jumps into its middle
 *   into_mid(a, b)  a + 1 + b: lea; jmp into body's middle, whose ret
 *                   returns for both (the dynamic linker's mempcpy
 *                   jumping into memcpy)
 *   hot(n)          3n: a loop that jumps to hot_cold's first instruction
 *                   and from there back into its own middle, n times
 *                   (gcc's foo -> foo.cold -> foo)
 *   hot2(n)         3n: the same, into the middle of cold2 and back
 *   tail(a)         2(a + 3): lea; a jump to the next instruction, the
 *                   entry of next_fn (lea, ret): a tail call of the
 *                   function laid out right after it (glibc's strerror
 *                   and strerror_l); tail8 the same with a short jump
 * main calls into_mid 5 times, hot(100), hot2(100), body once, tail 7
 * times and tail8 4 times.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#if defined(__x86_64__)
__asm__(".text\n"
	".globl body\n.type body,@function\n"
	"body:\n"
	"	mov %rdi, %rax\n"
	".Lbody_mid:\n"
	"	add %rsi, %rax\n"
	"	ret\n"
	".size body, .-body\n"
	".globl into_mid\n.type into_mid,@function\n"
	"into_mid:\n"
	"	lea 1(%rdi), %rax\n"
	"	jmp .Lbody_mid\n"
	".size into_mid, .-into_mid\n"
	".globl hot\n.type hot,@function\n"
	"hot:\n"
	"	xor %eax, %eax\n"
	".Lhot_loop:\n"
	"	add $1, %rax\n"
	"	jmp hot_cold\n"
	".Lhot_back:\n"
	"	dec %rdi\n"
	"	jnz .Lhot_loop\n"
	"	ret\n"
	".size hot, .-hot\n"
	".type hot_cold,@function\n"
	"hot_cold:\n"
	"	add $2, %rax\n"
	"	jmp .Lhot_back\n"
	".size hot_cold, .-hot_cold\n"
	".globl hot2\n.type hot2,@function\n"
	"hot2:\n"
	"	xor %eax, %eax\n"
	".Lhot2_loop:\n"
	"	add $1, %rax\n"
	"	jmp .Lcold2_mid\n"
	".Lhot2_back:\n"
	"	dec %rdi\n"
	"	jnz .Lhot2_loop\n"
	"	ret\n"
	".size hot2, .-hot2\n"
	".type cold2,@function\n"
	"cold2:\n"
	"	nop\n"
	".Lcold2_mid:\n"
	"	add $2, %rax\n"
	"	jmp .Lhot2_back\n"
	".size cold2, .-cold2\n"
	".globl tail\n.type tail,@function\n"
	"tail:\n"
	"	lea 3(%rdi), %rdi\n"
	"	.byte 0xe9, 0, 0, 0, 0\n" /* jmp next_fn, as written: not left out */
	".size tail, .-tail\n"
	".globl next_fn\n.type next_fn,@function\n"
	"next_fn:\n"
	"	lea (%rdi,%rdi), %rax\n"
	"	ret\n"
	".size next_fn, .-next_fn\n"
	".globl tail8\n.type tail8,@function\n"
	"tail8:\n"
	"	lea 3(%rdi), %rdi\n"
	"	.byte 0xeb, 0\n" /* jmp next8, short */
	".size tail8, .-tail8\n"
	".globl next8\n.type next8,@function\n"
	"next8:\n"
	"	lea (%rdi,%rdi), %rax\n"
	"	ret\n"
	".size next8, .-next8\n");

long body(long a, long b);
long into_mid(long a, long b);
long hot(long n);
long hot2(long n);
long tail(long a);
long tail8(long a);

int main(void)
{
	long s = 0;
	for (volatile int k = 0; k < 5; k++)
		s += into_mid(k, 2);
	s += hot(100) + hot2(100) + body(1, 2);
	/* (called through a pointer, so that a block starts at tail: VEX
	 * follows one direct call or jump per block, here the jump) */
	long (*volatile t)(long) = tail;
	for (volatile int k = 0; k < 7; k++)
		s += t(k);
	t = tail8;
	for (volatile int k = 0; k < 4; k++)
		s += t(k);
	/* tail: 2 (0 + 3) + ... + 2 (6 + 3) = 84; tail8: 2 (3 + 4 + 5 + 6) */
	return s == 5 * 3 + 10 + 300 + 300 + 3 + 84 + 36 ? 0 : 1;
}
#else
int main(void)
{
	return 77;
}
#endif
