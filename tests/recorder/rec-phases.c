/* rec-phases.c -- a program in three phases of known instruction counts,
 * for the recorder's timeline (run-timeline.sh).
 *
 * Each phase is a function written in assembly, so that every instruction
 * is known (x86-64; other hosts build a program that says so and exits 77):
 *   phase1(n)  mov; n x (dec; jnz); ret                        Ir 2n + 2
 *   phase2(n)  mov; n x (mov (%rsp); dec; jnz); ret            Ir 3n + 2
 *   phase3(n)  mov; n x (nop; nop; nop; dec; jnz); ret         Ir 5n + 2
 * main runs phase1(10,000,000), phase2(5,000,000), phase3(6,000,000), in
 * that order: 20,000,002, 15,000,002 and 30,000,002 Ir.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#if defined(__x86_64__)
__asm__(".text\n"
	".globl phase1\n.type phase1,@function\n"
	"phase1:\n"
	"	mov %edi, %ecx\n"
	".Lp1:\n"
	"	dec %ecx\n"
	"	jnz .Lp1\n"
	"	ret\n"
	".size phase1, .-phase1\n"
	".globl phase2\n.type phase2,@function\n"
	"phase2:\n"
	"	mov %edi, %ecx\n"
	".Lp2:\n"
	"	mov (%rsp), %rax\n"
	"	dec %ecx\n"
	"	jnz .Lp2\n"
	"	ret\n"
	".size phase2, .-phase2\n"
	".globl phase3\n.type phase3,@function\n"
	"phase3:\n"
	"	mov %edi, %ecx\n"
	".Lp3:\n"
	"	nop\n"
	"	nop\n"
	"	nop\n"
	"	dec %ecx\n"
	"	jnz .Lp3\n"
	"	ret\n"
	".size phase3, .-phase3\n");

void phase1(int n);
void phase2(int n);
void phase3(int n);

int main(void)
{
	phase1(10000000);
	phase2(5000000);
	phase3(6000000);
	return 0;
}
#else
int main(void)
{
	return 77;
}
#endif
