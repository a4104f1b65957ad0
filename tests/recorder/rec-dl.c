/* rec-dl.c -- loads a shared library, calls it, unloads it, three times:
 * its translations are thrown away each time (and its code may come back
 * at another address).
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const char *lib = argc > 1 ? argv[1] : "./librec-plug.so";
	long total = 0;
	for (int round = 0; round < 3; round++) {
		void *h = dlopen(lib, RTLD_NOW);
		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		long (*work)(int) = (long (*)(int))dlsym(h, "plug_work");
		if (!work)
			return 1;
		total += work(1000 * (round + 1));
		dlclose(h);
	}
	printf("%ld\n", total);
	return 0;
}
