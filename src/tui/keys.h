/* keys.h -- every action of the explorer, its keys and its help text, in one
 * table: the key dispatcher, the help screen and the man page's key list are
 * all made from it.
 *
 * KEYDEF(action, keys, help) where keys is a string of key names separated
 * by spaces: a printable character, or <Up> <Down> <PgUp> <PgDn> <Home>
 * <End> <Enter> <Esc> <Backspace> <Left> <Right> <Tab> <F1> <C-l>.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */

/* clang-format off */
#define KEY_TABLE(KEYDEF, SECTION) \
	SECTION("Moving") \
	KEYDEF(ACT_DOWN,      "j <Down>",            "next row") \
	KEYDEF(ACT_UP,        "k <Up>",              "previous row") \
	KEYDEF(ACT_PGDN,      "<PgDn> <Space> <C-f>", "next page") \
	KEYDEF(ACT_PGUP,      "<PgUp> <C-b>",        "previous page") \
	KEYDEF(ACT_HOME,      "g <Home>",            "first row") \
	KEYDEF(ACT_END,       "G <End>",             "last row") \
	KEYDEF(ACT_ENTER,     "<Enter> <Right>",     "open the selected function (its callers and callees)") \
	KEYDEF(ACT_BACK,      "<Esc> <Backspace> <Left> h", "back to the previous view") \
	KEYDEF(ACT_FORWARD,   "l",                   "forward again (after going back)") \
	SECTION("Views") \
	KEYDEF(ACT_FUNCTIONS, "F 1",                 "functions: flat list with self and inclusive costs") \
	KEYDEF(ACT_CALLS,     "c 2",                 "callers and callees of the selected function") \
	KEYDEF(ACT_SOURCE,    "s 3",                 "annotated source of the selected function") \
	KEYDEF(ACT_ASM,       "a",                   "assembly of the selected function with per-instruction costs (profiles with instruction addresses)") \
	KEYDEF(ACT_EVENTS,    "e",                   "events: choose the sort event and the shown events") \
	KEYDEF(ACT_SUMMARY,   "S i",                 "summary: command, events, totals, parts") \
	KEYDEF(ACT_PARTS,     "P",                   "parts (threads, dumps, processes): show one or all") \
	KEYDEF(ACT_FILEFN,    "f",                   "file:function tree: files with their functions") \
	KEYDEF(ACT_FNFILE,    "u",                   "function:file tree: functions with their files") \
	KEYDEF(ACT_OBJECTS,   "m",                   "objects (ob=): costs by ELF object, then functions") \
	KEYDEF(ACT_CALLTREE,  "t",                   "call tree, top-down from the program's roots") \
	KEYDEF(ACT_CALLERTREE, "T",                  "callers tree, bottom-up from the selected function") \
	KEYDEF(ACT_EXPAND,    "<Tab>",               "trees: open or close the selected group or node") \
	KEYDEF(ACT_EXPAND_ALL, "*",                  "file/function/object trees: open or close all") \
	KEYDEF(ACT_HELP,      "? <F1>",              "this help") \
	SECTION("Costs") \
	KEYDEF(ACT_SORT_NEXT, "o >",                 "sort by the next event") \
	KEYDEF(ACT_SORT_PREV, "O <",                 "sort by the previous event") \
	KEYDEF(ACT_INCLUSIVE, "I",                   "order functions by inclusive or by self cost") \
	KEYDEF(ACT_ORDER,     ".",                   "functions: order by cost, calls, name or file") \
	KEYDEF(ACT_PERCENT,   "%",                   "percentages on or off") \
	KEYDEF(ACT_THR_UP,    "+ =",                 "raise the threshold (hide more)") \
	KEYDEF(ACT_THR_DOWN,  "-",                   "lower the threshold (show more)") \
	KEYDEF(ACT_TOGGLE,    "x",                   "events view: show or hide the selected event") \
	KEYDEF(ACT_DEFINE,    "E",                   "define a derived event by a formula, e.g. CEst = Ir + 10 Bm") \
	KEYDEF(ACT_RELATIVE,  "r",                   "percentages of the total, or of the function shown (calls)") \
	KEYDEF(ACT_CYCLES,    "C",                   "cycle detection on or off: functions calling each other as one <cycle N> (KCachegrind's), or the raw numbers callgrind_annotate prints") \
	KEYDEF(ACT_FOLD,      "R",                   "fold callgrind's recursion levels and caller contexts (f'2, f'caller) into f, or not") \
	SECTION("Source") \
	KEYDEF(ACT_HOTTEST,   "H",                   "the hottest line (instruction in the assembly view)") \
	KEYDEF(ACT_HOT_NEXT,  "]",                   "the next line (instruction) above the threshold") \
	KEYDEF(ACT_HOT_PREV,  "[",                   "the previous line (instruction) above the threshold") \
	KEYDEF(ACT_CTX_MORE,  "}",                   "more context lines around costly lines") \
	KEYDEF(ACT_CTX_LESS,  "{",                   "fewer context lines") \
	KEYDEF(ACT_LOOKUP,    "d",                   "find sources: add a directory, or FROM=TO to substitute a path prefix") \
	SECTION("Searching") \
	KEYDEF(ACT_SEARCH,    "/",                   "search rows (a regular expression)") \
	KEYDEF(ACT_NEXT,      "n",                   "next match") \
	KEYDEF(ACT_PREV,      "N",                   "previous match") \
	KEYDEF(ACT_FILTER,    "|",                   "show only the rows that match (empty: all)") \
	SECTION("Other") \
	KEYDEF(ACT_LOG,       "L",                   "the recorded program's output (cgtui PROGRAM)") \
	KEYDEF(ACT_DETAIL,    "D",                   "detail pane (callers and callees of the selected function) on or off") \
	KEYDEF(ACT_REDRAW,    "<C-l>",               "redraw the screen") \
	KEYDEF(ACT_QUIT,      "q Q",                 "quit")
/* clang-format on */

enum action {
	ACT_NONE = 0,
#define KEYDEF_ENUM(a, k, h) a,
#define SECTION_NONE(s)
	KEY_TABLE(KEYDEF_ENUM, SECTION_NONE)
#undef KEYDEF_ENUM
#undef SECTION_NONE
	ACT_COUNT
};
