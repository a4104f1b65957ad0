/* finding.c -- the source of finding.out (finding.keys) */
static int helper(int x)
{
	return x * 2;
}

int rare(void) { return 1; }

int main(void)
{
	int s = helper(3);
	s += rare();
	return s;
}
