/* cyc.c -- the hard shapes of a call graph for tests/numbers: direct
 * recursion (fib), mutual recursion (is_odd/is_even), a cycle through a
 * callback (walk -> visit -> walk through a function pointer), and qsort
 * calling back into the program.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

static int is_even(unsigned n);
__attribute__((noinline)) static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}
__attribute__((noinline)) static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}
__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

struct node {
	int v;
	struct node *kid[2];
};
static long walk(const struct node *n, long (*f)(const struct node *));
__attribute__((noinline)) static long visit(const struct node *n)
{
	long s = n->v;
	for (int i = 0; i < 2; i++)
		if (n->kid[i])
			s += walk(n->kid[i], visit);
	return s;
}
__attribute__((noinline)) static long walk(const struct node *n, long (*f)(const struct node *))
{
	return f(n);
}
static struct node *build(int depth)
{
	struct node *n = calloc(1, sizeof(*n));
	n->v = depth;
	if (depth > 0)
		for (int i = 0; i < 2; i++)
			n->kid[i] = build(depth - 1);
	return n;
}

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	long s = 0;
	for (unsigned i = 0; i < 300; i++)
		s += is_odd(i);
	s += fib(18);
	s += walk(build(9), visit);
	static int v[3000];
	for (int i = 0; i < 3000; i++)
		v[i] = (i * 7919) % 3001;
	qsort(v, 3000, sizeof v[0], cmp);
	printf("%ld %d\n", s, v[10]);
	return 0;
}
