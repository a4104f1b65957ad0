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
 * main calls into_mid 5 times, hot(100), hot2(100) and body once.
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
	".size cold2, .-cold2\n");

long body(long a, long b);
long into_mid(long a, long b);
long hot(long n);
long hot2(long n);

int main(void)
{
	long s = 0;
	for (volatile int k = 0; k < 5; k++)
		s += into_mid(k, 2);
	s += hot(100) + hot2(100) + body(1, 2);
	return s == 5 * 3 + 10 + 300 + 300 + 3 ? 0 : 1;
}
#else
int main(void)
{
	return 77;
}
#endif
