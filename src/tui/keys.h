/* keys.h -- every action of the explorer, its keys, the view it opens and
 * its help text, in one table (as tig's VIEW_INFO and REQ_INFO): the key
 * dispatcher, the views' declarations, the help screen and the man page's
 * key list are all made from it.  Adding a view is a row here and its file.
 *
 * KEYDEF(action, keys, view, help) where keys is a string of key names
 * separated by spaces: a printable character, or <Up> <Down> <PgUp> <PgDn>
 * <Home> <End> <Enter> <Esc> <Backspace> <Left> <Right> <Tab> <F1> <C-l>;
 * view is NOVIEW (the action does something else), VIEW(name) (it opens the
 * view name_ops) or FNVIEW(name) (it opens name_ops on the selected
 * function).  VIEWDEF(name) declares a view no key opens directly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_KEYS_H
#define CGTUI_KEYS_H

/* clang-format off */
#define KEY_TABLE(KEYDEF, SECTION) \
	SECTION("Moving") \
	KEYDEF(ACT_DOWN,      "j <Down>", NOVIEW, "next row") \
	KEYDEF(ACT_UP,        "k <Up>", NOVIEW, "previous row") \
	KEYDEF(ACT_PGDN,      "<PgDn> <Space> <C-f>", NOVIEW, "next page") \
	KEYDEF(ACT_PGUP,      "<PgUp> <C-b>", NOVIEW, "previous page") \
	KEYDEF(ACT_HOME,      "g <Home>", NOVIEW, "first row") \
	KEYDEF(ACT_END,       "G <End>", NOVIEW, "last row") \
	KEYDEF(ACT_ENTER,     "<Enter> <Right>", FNVIEW(calls), "open the selected function (its callers and callees)") \
	KEYDEF(ACT_BACK,      "<Esc> <Backspace> <Left> h", NOVIEW, "back to the previous view") \
	KEYDEF(ACT_FORWARD,   "l", NOVIEW, "forward again (after going back)") \
	SECTION("Views") \
	KEYDEF(ACT_FUNCTIONS, "F 1", VIEW(functions), "functions: flat list with self and inclusive costs") \
	KEYDEF(ACT_CALLS,     "c 2", FNVIEW(calls), "callers and callees of the selected function") \
	KEYDEF(ACT_SOURCE,    "s 3", FNVIEW(source), "annotated source of the selected function") \
	KEYDEF(ACT_ASM,       "a", FNVIEW(asm), "assembly of the selected function with per-instruction costs (profiles with instruction addresses)") \
	KEYDEF(ACT_EVENTS,    "e", VIEW(events), "events: choose the sort event and the shown events") \
	KEYDEF(ACT_SUMMARY,   "S i", VIEW(summary), "summary: command, events, totals, parts") \
	KEYDEF(ACT_PARTS,     "P", VIEW(parts), "parts (threads, dumps, processes): show one or all") \
	KEYDEF(ACT_FILEFN,    "f", VIEW(filefn), "file:function tree: files with their functions") \
	KEYDEF(ACT_FNFILE,    "u", VIEW(fnfile), "function:file tree: functions with their files") \
	KEYDEF(ACT_OBJECTS,   "m", VIEW(objects), "objects (ob=): costs by ELF object, then functions") \
	KEYDEF(ACT_CALLTREE,  "t", VIEW(calltree), "call tree, top-down from the program's roots") \
	KEYDEF(ACT_CALLERTREE, "T", FNVIEW(callertree), "callers tree, bottom-up from the selected function") \
	KEYDEF(ACT_EXPAND,    "<Tab>", NOVIEW, "trees: open or close the selected group or node") \
	KEYDEF(ACT_EXPAND_ALL, "*", NOVIEW, "file/function/object trees: open or close all") \
	KEYDEF(ACT_HELP,      "? <F1>", VIEW(help), "this help") \
	SECTION("Costs") \
	KEYDEF(ACT_SORT_NEXT, "o >", NOVIEW, "sort by the next event") \
	KEYDEF(ACT_SORT_PREV, "O <", NOVIEW, "sort by the previous event") \
	KEYDEF(ACT_INCLUSIVE, "I", NOVIEW, "order functions by inclusive or by self cost") \
	KEYDEF(ACT_ORDER,     ".", NOVIEW, "functions: order by cost, calls, name or file") \
	KEYDEF(ACT_PERCENT,   "%", NOVIEW, "percentages on or off") \
	KEYDEF(ACT_THR_UP,    "+ =", NOVIEW, "raise the threshold (hide more)") \
	KEYDEF(ACT_THR_DOWN,  "-", NOVIEW, "lower the threshold (show more)") \
	KEYDEF(ACT_TOGGLE,    "x", NOVIEW, "events view: show or hide the selected event") \
	KEYDEF(ACT_DEFINE,    "E", NOVIEW, "define a derived event by a formula, e.g. CEst = Ir + 10 Bm") \
	KEYDEF(ACT_RELATIVE,  "r", NOVIEW, "percentages of the total, or of the function shown (calls)") \
	KEYDEF(ACT_CYCLES,    "C", NOVIEW, "cycle detection on or off: functions calling each other as one <cycle N> (KCachegrind's), or the raw numbers callgrind_annotate prints") \
	KEYDEF(ACT_FOLD,      "R", NOVIEW, "fold callgrind's recursion levels and caller contexts (f'2, f'caller) into f, or not") \
	SECTION("Source") \
	KEYDEF(ACT_HOTTEST,   "H", NOVIEW, "the hottest line (instruction in the assembly view)") \
	KEYDEF(ACT_HOT_NEXT,  "]", NOVIEW, "the next line (instruction) above the threshold") \
	KEYDEF(ACT_HOT_PREV,  "[", NOVIEW, "the previous line (instruction) above the threshold") \
	KEYDEF(ACT_CTX_MORE,  "}", NOVIEW, "more context lines around costly lines") \
	KEYDEF(ACT_CTX_LESS,  "{", NOVIEW, "fewer context lines") \
	KEYDEF(ACT_LOOKUP,    "d", NOVIEW, "find sources: add a directory, or FROM=TO to substitute a path prefix") \
	SECTION("Searching") \
	KEYDEF(ACT_SEARCH,    "/", NOVIEW, "search rows (a regular expression)") \
	KEYDEF(ACT_NEXT,      "n", NOVIEW, "next match") \
	KEYDEF(ACT_PREV,      "N", NOVIEW, "previous match") \
	KEYDEF(ACT_FILTER,    "|", NOVIEW, "show only the rows that match (empty: all)") \
	SECTION("Other") \
	KEYDEF(ACT_LOG,       "L", VIEW(log), "the recorded program's output (cgtui PROGRAM)") \
	KEYDEF(ACT_DETAIL,    "D", NOVIEW, "detail pane (callers and callees of the selected function) on or off") \
	KEYDEF(ACT_REDRAW,    "<C-l>", NOVIEW, "redraw the screen") \
	KEYDEF(ACT_QUIT,      "q Q", NOVIEW, "quit")
/* clang-format on */

enum action {
	ACT_NONE = 0,
#define KEYDEF_ENUM(a, k, v, h) a,
#define SECTION_NONE(s)
	KEY_TABLE(KEYDEF_ENUM, SECTION_NONE)
#undef KEYDEF_ENUM
#undef SECTION_NONE
	ACT_COUNT
};

/* the views' ops, declared from the table: VIEW(x) and FNVIEW(x) name x_ops */
struct view_ops;
#define KEYDEF_DECL(a, k, v, h) v
#define SECTION_NONE(s)
#define NOVIEW
#define VIEW(x) extern const struct view_ops x##_ops;
#define FNVIEW(x) extern const struct view_ops x##_ops;
KEY_TABLE(KEYDEF_DECL, SECTION_NONE)
#undef KEYDEF_DECL
#undef SECTION_NONE
#undef NOVIEW
#undef VIEW
#undef FNVIEW

#endif
