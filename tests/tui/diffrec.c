int main(void)                 /* diffrec.keys: line 1 */
{ return f(3); }               /* calls f */
int f(int n)                   /* f; f'2 its calls deeper down */
{ return n ? f(n - 1) : 0; }   /* f calls f'2, f'2 calls f'2 */
