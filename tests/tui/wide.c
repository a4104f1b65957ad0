int g(int x);

int f(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += g(i);
	return s;
}
