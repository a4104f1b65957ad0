# selfsum.awk -- an independent sum of a profile's self costs, per event:
# every cost line that does not follow a calls= line (whose cost line is a
# call's inclusive cost), after the `positions:` subpositions.  '.' is 0;
# '*' repeats the previous cost line's value.  Prints the sums on one line.
# SPDX-License-Identifier: GPL-2.0-or-later
BEGIN { npos = 1; nev = 0; after_calls = 0 }
{ sub(/\r$/, "") }
/^positions:/ { npos = NF - 1; next }
/^events:/ { if (nev == 0) nev = NF - 1; next }
/^calls=/ { after_calls = 1; next }
/^[0-9+*-]/ {
	if (after_calls) { after_calls = 0; next }
	for (i = 1; i <= nev; i++) {
		v = $(npos + i)
		if (v == "" || v == ".") v = 0
		else if (v == "*") v = last[i]
		last[i] = v
		sum[i] += v
	}
	next
}
END {
	for (i = 1; i <= nev; i++) printf "%s%.0f", (i > 1 ? " " : ""), sum[i]
	printf "\n"
}
