/* main.c -- cgtui: the command line (app/cli.c) says which mode, the
 * mode (app/) does the rest.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/cli.h"
#include "record/record.h"
#include "tui/tui.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct cli c;
	int status = cli_parse(&c, argc, argv);
	if (!status) {
		switch (c.mode) {
		case CLI_READ:
			status = app_read(&c);
			break;
		case CLI_RECORD:
			status = app_record(&c);
			break;
		case CLI_CONTROL:
			status = rec_control_pid(c.control_pid, c.control_what);
			break;
		case CLI_KEYS: /* (=man: for the man page, =views: for the tests) */
			tui_print_keys(stdout, !c.keys ? KEYS_TEXT : !strcmp(c.keys, "man") ? KEYS_MAN
											      : KEYS_VIEWS);
			break;
		case CLI_DONE:
			break;
		}
	}
	cli_free(&c);
	return status;
}
