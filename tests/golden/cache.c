/* cache.c - strided array walks (cache misses) and data-dependent,
 * unpredictable branches. */
#include <stdio.h>

#define SIZE (1 << 20)

static unsigned char buf[SIZE];

static __attribute__((noinline)) unsigned walk(int stride)
{
	unsigned s = 0;
	for (int i = 0; i < SIZE; i += stride)
		s += buf[i];
	return s;
}

static __attribute__((noinline)) unsigned branchy(int n)
{
	unsigned x = 1, odd = 0, even = 0;
	for (int i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		if (x & 0x10000)
			odd += x >> 3;
		else
			even += x >> 5;
	}
	return odd ^ even;
}

int main(void)
{
	unsigned s = 0;

	for (int i = 0; i < SIZE; i += 64)
		buf[i] = (unsigned char)i;
	s += walk(64);
	s += walk(4096);
	s += branchy(20000);
	printf("%u\n", s);
	return 0;
}
