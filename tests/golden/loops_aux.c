/* loops_aux.c - second translation unit including loops.h. */
#include "loops.h"

unsigned aux_work(int n)
{
	unsigned v[64];
	unsigned s = 0;

	for (int i = 0; i < n; i++) {
		v[i & 63] = mix((unsigned)i);
		if ((i & 63) == 63)
			s += hsum(v, 64);
	}
	return s;
}
