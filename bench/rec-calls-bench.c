/* rec-calls-bench.c -- a call-heavy program for bench/rec-bench.sh: qsort
 * with a callback, and a small recursive expression interpreter run in a
 * loop (many short calls through pointers and recursion).
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int op; /* 0 constant, 1 add, 2 mul, 3 sub */
	long val;
	struct node *l, *r;
};

typedef long (*eval_fn)(const struct node *);
static long eval(const struct node *n);

static long ev_const(const struct node *n) { return n->val; }
static long ev_add(const struct node *n) { return eval(n->l) + eval(n->r); }
static long ev_mul(const struct node *n) { return (eval(n->l) * eval(n->r)) % 1000003; }
static long ev_sub(const struct node *n) { return eval(n->l) - eval(n->r); }

static const eval_fn table[4] = { ev_const, ev_add, ev_mul, ev_sub };

static long eval(const struct node *n)
{
	return table[n->op](n);
}

static struct node *build(int depth, unsigned *seed)
{
	struct node *n = malloc(sizeof(*n));
	*seed = *seed * 1103515245u + 12345u;
	if (depth == 0) {
		n->op = 0;
		n->val = (*seed >> 8) % 100;
		n->l = n->r = NULL;
	} else {
		n->op = 1 + (int)((*seed >> 8) % 3);
		n->l = build(depth - 1, seed);
		n->r = build(depth - 1, seed);
	}
	return n;
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	unsigned seed = 1;
	struct node *tree = build(12, &seed);
	long sum = 0;
	for (int r = 0; r < rounds; r++)
		sum += eval(tree);
	enum { N = 300000 };
	unsigned *v = malloc(N * sizeof(*v));
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = seed;
	}
	qsort(v, N, sizeof(*v), cmp);
	printf("%ld %u\n", sum, v[N / 2]);
	return 0;
}
