/* zstd-pack.c -- standard input compressed to standard output as zstd
 * frames, with libzstd's one-shot API (not the streaming decoder cgtui
 * reads with): for tests where the zstd command is not installed.
 *   zstd-pack [FRAME_BYTES]   one frame per FRAME_BYTES of input (default:
 *                             one frame for all of it)
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

int main(int argc, char **argv)
{
	size_t cap = 1 << 16, n = 0, got;
	char *in = malloc(cap);
	while (in && (got = fread(in + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n == cap)
			in = realloc(in, cap *= 2);
	}
	if (!in)
		return 1;
	size_t frame = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;
	if (!frame)
		frame = n ? n : 1;
	for (size_t at = 0; at < n || (n == 0 && at == 0); at += frame) {
		size_t len = n - at < frame ? n - at : frame;
		size_t bound = ZSTD_compressBound(len);
		char *out = malloc(bound);
		size_t z = out ? ZSTD_compress(out, bound, in + at, len, 3) : 0;
		if (!out || ZSTD_isError(z) || fwrite(out, 1, z, stdout) != z) {
			fprintf(stderr, "zstd-pack: %s\n", out ? ZSTD_getErrorName(z) : "out of memory");
			return 1;
		}
		free(out);
		if (n == 0)
			break;
	}
	free(in);
	return fflush(stdout) != 0;
}
