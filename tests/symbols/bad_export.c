/* An exported name outside the mp_/mlvpipe_ namespace, to prove exported_symbols.sh fails on it. */
int curve_eval_unprefixed(int x);
int curve_eval_unprefixed(int x) { return x + 1; }
