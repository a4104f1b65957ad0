# rec-python.py -- a small script for the recorder's tests (python3 -S -B,
# PYTHONHASHSEED=0): calls, a generator, a dict, sorting.
# SPDX-License-Identifier: GPL-2.0-or-later


def squares(n):
    return sum(i * i for i in range(n))


table = {str(i): squares(i) for i in range(300)}
pairs = sorted(table.items())
print(len(pairs), pairs[-1])
