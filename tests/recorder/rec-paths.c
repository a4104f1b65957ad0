/* rec-paths.c -- a function reached by several paths with costs computed
 * by hand, for the recorder's calling contexts (run-contexts.sh).
 *
 * The functions are written in assembly so that every instruction is
 * known (x86-64; other hosts build a program that says so and exits 77):
 *   leaf(n)    mov; n x (dec; jnz); ret           Ir 2n + 2
 *   viaA()     mov; call leaf(1000); ret          self 3, leaf 2002
 *   viaB()     mov; call leaf(10); mov; call leaf(10); ret
 *                                                 self 5, leaf 2 x 22
 *   rec(d)     d > 0: test jz push dec call pop call ret (8), rec(d-1),
 *              leaf(d); d = 0: test jz ret (3)     rec(3): self 27 in 4
 *              calls, nested 4 deep; leaf 4 + 6 + 8 = 18 in 3 calls
 *   jumper()   mov $5; jmp into leaf's loop       self 2, leaf 10 + 1
 *   jumper2()  mov $5; test; jnz into leaf's loop self 3, leaf 10 + 1
 * main calls viaA and viaB 3 times each, rec(3), jumper and jumper2 once.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#if defined(__x86_64__)
__asm__(".text\n"
	".globl leaf\n.type leaf,@function\n"
	"leaf:\n"
	"	mov %edi, %ecx\n"
	".Lleaf_loop:\n"
	"	dec %ecx\n"
	"	jnz .Lleaf_loop\n"
	"	ret\n"
	".size leaf, .-leaf\n"
	".globl viaA\n.type viaA,@function\n"
	"viaA:\n"
	"	mov $1000, %edi\n"
	"	call leaf\n"
	"	ret\n"
	".size viaA, .-viaA\n"
	".globl viaB\n.type viaB,@function\n"
	"viaB:\n"
	"	mov $10, %edi\n"
	"	call leaf\n"
	"	mov $10, %edi\n"
	"	call leaf\n"
	"	ret\n"
	".size viaB, .-viaB\n"
	".globl rec\n.type rec,@function\n"
	"rec:\n"
	"	test %edi, %edi\n"
	"	jz .Lrec_end\n"
	"	push %rdi\n"
	"	dec %edi\n"
	"	call rec\n"
	"	pop %rdi\n"
	"	call leaf\n"
	".Lrec_end:\n"
	"	ret\n"
	".size rec, .-rec\n"
	".globl jumper\n.type jumper,@function\n"
	"jumper:\n"
	"	mov $5, %ecx\n"
	"	jmp .Lleaf_loop\n"
	".size jumper, .-jumper\n"
	".globl jumper2\n.type jumper2,@function\n"
	"jumper2:\n"
	"	mov $5, %ecx\n"
	"	test %ecx, %ecx\n"
	"	jnz .Lleaf_loop\n"
	"	ret\n"
	".size jumper2, .-jumper2\n");

void viaA(void);
void viaB(void);
void rec(int d);
void jumper(void);
void jumper2(void);

int main(void)
{
	for (volatile int k = 0; k < 3; k++) {
		viaA();
		viaB();
	}
	rec(3);
	jumper();
	jumper2();
	return 0;
}
#else
int main(void)
{
	return 77;
}
#endif
