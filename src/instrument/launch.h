/* launch.h -- `cgtui [options] prog args`: records a program under
 * Valgrind with cgtui's tool (or callgrind when the tool is missing) and
 * shows the explorer while it runs.  Normal C, in the cgtui binary.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LAUNCH_H
#define CGTUI_LAUNCH_H

#include <getopt.h>
#include <stdio.h>

/* The index of the first argument that is not an option (nor an option's
 * value) in argv, or argc: main's options are `main_opts` (and -I DIR),
 * the recording options are launch's own. */
int launch_first_operand(int argc, char **argv, const struct option *main_opts);

/* Is `arg` a program to record: an executable file (ELF or #!), or a name
 * found in PATH, and not a profile? */
int launch_is_program(const char *arg);

/* argv[first] is not a program to record (launch_is_program said so):
 * when recording options come before it, or it is an ELF program or #!
 * script that cannot be run, says why on stderr and returns 1; else 0 (it
 * is a profile to read). */
int launch_not_program(int argc, char **argv, int first, const struct option *main_opts);

/* Records argv[prog] with argv[prog+1 ..] under Valgrind; the options
 * before argv[prog] are the recording options.  Returns the exit status of
 * cgtui (0; 1 usage error; 2 nothing recorded; 128+N after signal N). */
int launch_main(int argc, char **argv, int prog);

/* The recording options, for --help. */
void launch_usage(FILE *f);

/* Is argv[1] --control (or --control=PID)? */
int launch_is_control(int argc, char **argv);
/* `cgtui --control PID dump|zero|on|off|status`: the command to the
 * recording in process PID (Valgrind's monitor command, through vgdb);
 * its answer on stdout.  Returns the exit status (0; 1 usage error; 2 the
 * process cannot be reached). */
int launch_control(int argc, char **argv);

#endif
