#!/bin/sh
# run-simref.sh -- src/sim's cache models against the reference simulator
# written for the tests (tests/unit/simref.py), on generated traces.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
here=$(cd "$(dirname "$0")" && pwd)
trace=${SIM_TRACE:-./tests/unit/sim-trace}
[ -x "$trace" ] || trace=$(dirname "$0")/sim-trace
mrc=${SIM_MRC:-./tests/unit/sim-mrc}
[ -x "$mrc" ] || mrc=$(dirname "$0")/sim-mrc
use=${SIM_USE:-./tests/unit/sim-use}
[ -x "$use" ] || use=$(dirname "$0")/sim-use
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
[ -x "$trace" ] && [ -x "$mrc" ] && [ -x "$use" ] ||
	{ echo "SKIP: sim-trace, sim-mrc or sim-use not built"; exit 77; }
exec python3 "$here/simref.py" "$trace" "$mrc" "$use" "$@"
