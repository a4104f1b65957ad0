/* rec-branch.c -- a program for tests/recorder/run-recorder.sh whose
 * branch-prediction counts depend on exactly how the predictors index
 * their tables: 1024 indirect call sites (cachegrind's table of last
 * targets has 512 slots, so sites share slots by their address bits), each
 * calling one of four functions chosen by the data, and after each a
 * conditional branch on the data (the history of outcomes decides which
 * counter predicts it).  Run with small caches, it also makes many data
 * accesses and fetches through caches of a single set.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

typedef unsigned (*step_fn)(unsigned);

static unsigned s0(unsigned x) { return x * 3u + 1u; }
static unsigned s1(unsigned x) { return x ^ (x >> 3); }
static unsigned s2(unsigned x) { return x + 0x9e37u; }
static unsigned s3(unsigned x) { return (x << 1) | (x >> 31); }

/* volatile: the compiler must call through the table at every site, and
 * branch around each store (no conditional move) */
static step_fn volatile tab[4] = { s0, s1, s2, s3 };
static volatile unsigned last;

#define SITE(k)                                        \
	acc = tab[(acc >> ((k) % 7u)) & 3u](acc);      \
	if (acc & (1u << ((k) % 11u)))                 \
		last = (k);
#define S4(k) SITE(k) SITE((k) + 1) SITE((k) + 2) SITE((k) + 3)
#define S16(k) S4(k) S4((k) + 4) S4((k) + 8) S4((k) + 12)
#define S64(k) S16(k) S16((k) + 16) S16((k) + 32) S16((k) + 48)
#define S256(k) S64(k) S64((k) + 64) S64((k) + 128) S64((k) + 192)

static unsigned run(unsigned acc)
{
	S256(0u) S256(256u) S256(512u) S256(768u)
	return acc;
}

int main(void)
{
	unsigned acc = 12345u;
	for (int r = 0; r < 100; r++)
		acc = run(acc);
	printf("%u %u\n", acc, last);
	return 0;
}
