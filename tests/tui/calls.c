/* calls.c: the source of calls.out (calls.keys) */
/* line 2 */
/* line 3 */
/* line 4 */
	return 42; /* f */
/* line 6 */
/* line 7 */
/* line 8 */
/* line 9 */
int main(void) {
/* line 11 */
/* line 12 */
/* line 13 */
/* line 14 */
/* line 15 */
/* line 16 */
/* line 17 */
/* line 18 */
/* line 19 */
/* line 20 */
/* line 21 */
/* line 22 */
/* line 23 */
/* line 24 */
/* line 25 */
/* line 26 */
/* line 27 */
/* line 28 */
/* line 29 */
	return f();
/* line 31 */
/* line 32 */
/* line 33 */
/* line 34 */
/* line 35 */
/* line 36 */
/* line 37 */
/* line 38 */
/* line 39 */
/* line 40 */
