/* wordfreq.c -- the example program behind examples/callgrind.out.wordfreq:
 * counts the words of a generated text in a hash table, then sorts them
 * by frequency with a recursive quicksort.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct word {
	char text[16];
	int count;
	struct word *next;
};

static struct word *table[4096];

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h & 4095;
}

static void add(const char *w)
{
	struct word **p = &table[hash(w)];
	for (; *p; p = &(*p)->next)
		if (strcmp((*p)->text, w) == 0) {
			(*p)->count++;
			return;
		}
	*p = calloc(1, sizeof(**p));
	strncpy((*p)->text, w, sizeof((*p)->text) - 1);
	(*p)->count = 1;
}

static void quicksort(struct word **v, int n)
{
	if (n < 2)
		return;
	int pivot = v[n / 2]->count, i = 0, j = n - 1;
	while (i <= j) {
		while (v[i]->count > pivot)
			i++;
		while (v[j]->count < pivot)
			j--;
		if (i <= j) {
			struct word *t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
	}
	quicksort(v, j + 1);
	quicksort(v + i, n - i);
}

int main(void)
{
	static const char *syll[] = { "ka", "lo", "mi", "ne", "so", "ta", "ru", "pe" };
	unsigned seed = 1;
	char w[16];
	for (int k = 0; k < 30000; k++) {
		int len = 0;
		seed = seed * 1103515245u + 12345u;
		for (int s = 0; s < 1 + (int)(seed >> 16) % 3; s++) {
			seed = seed * 1103515245u + 12345u;
			memcpy(w + len, syll[(seed >> 16) % 8], 2);
			len += 2;
		}
		w[len] = 0;
		add(w);
	}
	struct word *all[1024];
	int n = 0;
	for (int b = 0; b < 4096; b++)
		for (struct word *p = table[b]; p && n < 1024; p = p->next)
			all[n++] = p;
	quicksort(all, n);
	for (int i = 0; i < 5 && i < n; i++)
		printf("%-8s %d\n", all[i]->text, all[i]->count);
	return 0;
}
