// rec-exc.cc -- a C++ exception thrown through three frames and caught, for
// the call-graph tests (frames left by unwinding, not by returns).
// Copyright (C) the cgtui authors.
// SPDX-License-Identifier: GPL-2.0-or-later
#include <cstdio>
#include <stdexcept>

static volatile long sink;

__attribute__((noinline)) static void thrower(int n)
{
	sink += n;
	if (n % 3 == 0)
		throw std::runtime_error("three");
}

__attribute__((noinline)) static void middle(int n)
{
	thrower(n);
	sink++;
}

__attribute__((noinline)) static void outer(int n)
{
	middle(n);
	sink++;
}

int main()
{
	int caught = 0;
	for (int i = 0; i < 10; i++) {
		try {
			outer(i);
		} catch (const std::exception &) {
			caught++;
		}
	}
	std::printf("%d %ld\n", caught, (long)sink);
	return 0;
}
