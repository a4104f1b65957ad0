/* zero.c - source for the hand-made zerocall.callgrind profile. */
static void spin(int n);

int main(void)
{
	/* line 6 */
	/* line 7 */
	/* line 8 */
	/* line 9 */
	spin(1);	/* line 10 */
	spin(2);	/* line 11 */
	spin(3);	/* line 12: calls=0 in the profile */
	return 0;	/* line 13 */
}

/* line 16 */
/* line 17 */
/* line 18 */
static void spin(int n)	/* line 19 */
{			/* line 20 */
	while (n--) ;	/* line 21 */
}
