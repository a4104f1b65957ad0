int main(void)        /* diffsides.keys: line 1 */
{ work(); work();     /* calls work (B: three times) */
  old();              /* A only */
  fresh();            /* B only */
int work(void) { return 5; }
/* 6 */
/* 7 */
/* 8 */
int old(void) { return 9; }
/* 10 */
/* 11 */
int fresh(void) { return 12; }
