/* canon-plt.c -- a PLT stub run from another object's code (tests/live).
 *
 * Built twice: with -DCANON_LIB -shared -fPIC as libcanon.so, whose
 * lib_loop() calls lib_work() through its own PLT, and as a program that is
 * not position-independent and takes lib_work's address: the program's PLT
 * entry for lib_work is then that function's address for every object (its
 * canonical address), so the library's calls go from its PLT stub to the
 * program's and from there to lib_work.  (python3 and C libraries' calls of
 * malloc and free go that way.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */

#ifdef CANON_LIB
volatile unsigned long canon_sink;

__attribute__((noinline)) void lib_work(int n)
{
	for (int i = 0; i < n; i++)
		canon_sink += (unsigned long)i;
}

void lib_loop(int n)
{
	for (int i = 0; i < n; i++)
		lib_work(10);
}
#else
void lib_work(int n);
void lib_loop(int n);

void (*volatile keep)(int);

int main(void)
{
	keep = lib_work; /* the program's PLT entry becomes lib_work's address */
	lib_loop(100);
	return 0;
}
#endif
