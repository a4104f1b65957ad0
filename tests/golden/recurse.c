/* recurse.c - direct recursion (fib) and mutual recursion (is_even/is_odd). */
#include <stdio.h>

static __attribute__((noinline)) unsigned fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) int is_odd(unsigned n);

static __attribute__((noinline)) int is_even(unsigned n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

static __attribute__((noinline)) int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

static __attribute__((noinline)) unsigned leaf(unsigned x)
{
	return x * 3 + 1;
}

int main(void)
{
	unsigned r = fib(18);
	int e = 0;

	for (unsigned i = 0; i < 40; i++)
		e += is_even(i * 7);
	r += leaf(r);
	printf("%u %d\n", r, e);
	return 0;
}
