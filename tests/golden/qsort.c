/* qsort.c - qsort with a comparison callback, and calls through a table of
 * function pointers. */
#include <stdio.h>
#include <stdlib.h>

#define N 2000

static int data[N];

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int op_add(int a, int b) { return a + b; }
static int op_xor(int a, int b) { return a ^ b; }
static int op_max(int a, int b) { return a > b ? a : b; }

static int (*const ops[3])(int, int) = { op_add, op_xor, op_max };

int main(void)
{
	unsigned s = 12345;
	int acc = 0;

	for (int i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		data[i] = (int)((s >> 8) % 100000);
	}
	qsort(data, N, sizeof data[0], cmp_int);
	for (int i = 0; i < N; i++)
		acc = ops[i % 3](acc, data[i]);
	printf("%d %d %d\n", data[0], data[N - 1], acc);
	return 0;
}
