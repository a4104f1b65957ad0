/* keys.h -- every action of the explorer, its keys, the view it opens and
 * its help text, in one table (as tig's VIEW_INFO and REQ_INFO): the key
 * dispatcher, the views' declarations, the help screen and the man page's
 * key list are all made from it.  Adding a view is a row here and its file.
 *
 * KEYDEF(action, keys, view, on_fn, help) where keys is a string of key
 * names separated by spaces: a printable character, or <Up> <Down> <PgUp>
 * <PgDn> <Home> <End> <Enter> <Esc> <Backspace> <Left> <Right> <S-Left>
 * <S-Right> <Tab> <F1> <C-l>; view is the name of the view the action opens (its ops are
 * view_ops `name_ops`), or none; on_fn 1 opens it on the selected
 * function, 2 on the selected function or, when none is, on none.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_KEYS_H
#define CGTUI_KEYS_H

/* clang-format off */
#define KEY_TABLE(KEYDEF, SECTION) \
	SECTION("Moving") \
	KEYDEF(ACT_DOWN,      "j <Down>", none, 0, "next row") \
	KEYDEF(ACT_UP,        "k <Up>", none, 0, "previous row") \
	KEYDEF(ACT_PGDN,      "<PgDn> <Space> <C-f>", none, 0, "next page") \
	KEYDEF(ACT_PGUP,      "<PgUp> <C-b>", none, 0, "previous page") \
	KEYDEF(ACT_HOME,      "g <Home>", none, 0, "first row") \
	KEYDEF(ACT_END,       "G <End>", none, 0, "last row") \
	KEYDEF(ACT_ENTER,     "<Enter>", calls, 1, "open the selected function (its callers and callees)") \
	KEYDEF(ACT_RIGHT,     "<Right>", none, 0, "trees: open the node (again: to its first child); call graph, call map: the box or rectangle on the right; elsewhere as Enter") \
	KEYDEF(ACT_BACK,      "<Esc> <Backspace>", none, 0, "back to the previous view") \
	KEYDEF(ACT_LEFT,      "<Left> h", none, 0, "trees: close the node, or go to its parent; call graph, call map: the box or rectangle on the left; elsewhere, and on a closed root, back") \
	KEYDEF(ACT_FORWARD,   "l", none, 0, "forward again (after going back)") \
	KEYDEF(ACT_SCROLL_RIGHT, "w <S-Right>", none, 0, "lists, source, assembly: the names and text scrolled sideways, 8 columns a time, to show their ends (the costs stay)") \
	KEYDEF(ACT_SCROLL_LEFT, "b <S-Left>", none, 0, "the names and text scrolled back") \
	SECTION("Views") \
	KEYDEF(ACT_FUNCTIONS, "F 1", functions, 0, "functions: flat list with self and inclusive costs") \
	KEYDEF(ACT_CALLS,     "c 2", calls, 1, "callers and callees of the selected function") \
	KEYDEF(ACT_SOURCE,    "s 3", source, 1, "annotated source of the selected function") \
	KEYDEF(ACT_ASM,       "a", asm, 1, "assembly of the selected function with per-instruction costs (profiles with instruction addresses)") \
	KEYDEF(ACT_EVENTS,    "e", events, 0, "events: choose the sort event and the shown events") \
	KEYDEF(ACT_SUMMARY,   "S i", summary, 0, "summary: command, events, totals, parts") \
	KEYDEF(ACT_PARTS,     "P", parts, 0, "parts (threads, dumps, processes): show one, several (Space marks) or all") \
	KEYDEF(ACT_COMPARE,   "A", compare, 0, "compare: this profile minus another run (a callgrind.out.* or cachegrind.out.* beside it, or any file); in a difference: the sides swapped, or either alone") \
	KEYDEF(ACT_FILEFN,    "f", filefn, 0, "file:function tree: files with their functions") \
	KEYDEF(ACT_FNFILE,    "u", fnfile, 0, "function:file tree: functions with their files") \
	KEYDEF(ACT_OBJECTS,   "m", objects, 0, "objects (ob=): costs by ELF object, then functions") \
	KEYDEF(ACT_CALLTREE,  "t", calltree, 0, "call tree, top-down from the program's roots: exact along recorded paths (PROFILE.ctx beside the profile), else estimated below the roots, as its title says") \
	KEYDEF(ACT_CALLERTREE, "T", callertree, 1, "callers tree, bottom-up from the selected function: exact along recorded paths (PROFILE.ctx), else estimated, as its title says (in the flame graph: drawn as one)") \
	KEYDEF(ACT_CALLGRAPH, "4", callgraph, 1, "call graph: the function in a box, its callers above and callees below ({ } fewer or more levels); arrows move, Enter centres, Esc back") \
	KEYDEF(ACT_CALLMAP,   "5", callmap, 1, "call map: the function's inclusive cost as a rectangle split among its callees (and theirs); Enter zooms in, Esc out") \
	KEYDEF(ACT_FLAME,     "6", flame, 0, "flame graph (icicle): every call path from the roots down, as wide as its inclusive cost, coloured by self cost; arrows move, Enter zooms in, Esc out, / highlights, T the selected function's callers drawn the same way; [estimated] when the profile has no recorded contexts") \
	KEYDEF(ACT_TIMELINE,  "7", timeline, 2, "timeline: the sort event's rate (per Ir) in each interval of the run, for the whole run and the selected function, as sparklines (cgtui --timeline=yes); Left/Right move the cursor, whose interval the header gives") \
	KEYDEF(ACT_RANGE,     "V", none, 0, "timeline: mark one end of a time range; again at the other end: the range becomes the scope (a step: Esc goes back), the functions' self costs and the timeline show it, the other views the whole run and say so") \
	KEYDEF(ACT_ZOOM,      "z", none, 0, "zoom: the lists keep only the selected object, file or C++ class (asks which); again: all") \
	KEYDEF(ACT_MRC,       "8", mrc, 2, "miss-ratio curve of the selected function (or the whole run) by cache size, the simulated caches marked (cgtui --cache-mrc=yes); Left/Right choose a size") \
	KEYDEF(ACT_EXPAND,    "<Tab>", none, 0, "trees: open or close the selected group or node") \
	KEYDEF(ACT_EXPAND_ALL, "*", none, 0, "file/function/object trees: open or close all; call trees: open the hottest path below the node; parts view: show all parts") \
	KEYDEF(ACT_COLLAPSE_ALL, "W", none, 0, "trees: close every node") \
	KEYDEF(ACT_HELP,      "? <F1>", help, 0, "this help") \
	SECTION("Costs") \
	KEYDEF(ACT_SORT_NEXT, "o >", none, 0, "sort by the next event") \
	KEYDEF(ACT_SORT_PREV, "O <", none, 0, "sort by the previous event") \
	KEYDEF(ACT_INCLUSIVE, "I", none, 0, "order functions by inclusive or by self cost") \
	KEYDEF(ACT_ORDER,     ".", none, 0, "functions: order by cost, calls, name or file") \
	KEYDEF(ACT_PERCENT,   "%", none, 0, "percentages on or off") \
	KEYDEF(ACT_BARS,      "B", none, 0, "heat bars beside the costs on or off") \
	KEYDEF(ACT_TEMPLATES, "v", none, 0, "C++ names: template arguments folded (std::vector<...>) or shown") \
	KEYDEF(ACT_THR_UP,    "+ =", none, 0, "raise the threshold (hide more)") \
	KEYDEF(ACT_THR_DOWN,  "-", none, 0, "lower the threshold (show more)") \
	KEYDEF(ACT_TOGGLE,    "x", none, 0, "events view: show or hide the selected event; parts view (also Space): add the selected part to those shown, or take it out") \
	KEYDEF(ACT_DEFINE,    "E", none, 0, "define a derived event by a formula, e.g. Cycles = Ir + 10 L1m + 100 LLm (CEst, KCachegrind's, is there already when its events are)") \
	KEYDEF(ACT_RELATIVE,  "r", none, 0, "percentages and heat bars of the total, or of the function a view is about (callers and callees, callers tree, source, assembly, call graph and map)") \
	KEYDEF(ACT_CYCLES,    "C", none, 0, "cycle detection on or off: functions calling each other as one <cycle N> (KCachegrind's), or the raw numbers callgrind_annotate prints") \
	KEYDEF(ACT_FOLD,      "R", none, 0, "fold callgrind's recursion levels and caller contexts (f'2, f'caller) into f, or not") \
	SECTION("Source") \
	KEYDEF(ACT_HOTTEST,   "H", none, 0, "the hottest line (instruction in the assembly view)") \
	KEYDEF(ACT_HOT_NEXT,  "]", none, 0, "the next line (instruction) above the threshold") \
	KEYDEF(ACT_HOT_PREV,  "[", none, 0, "the previous line (instruction) above the threshold") \
	KEYDEF(ACT_CTX_MORE,  "}", none, 0, "more context lines around costly lines (call graph: one level more of callers and callees)") \
	KEYDEF(ACT_CTX_LESS,  "{", none, 0, "fewer context lines (call graph: one level fewer)") \
	KEYDEF(ACT_LOOKUP,    "d", none, 0, "find sources: add a directory, or FROM=TO to substitute a path prefix") \
	SECTION("Searching") \
	KEYDEF(ACT_SEARCH,    "/", none, 0, "search rows (a regular expression)") \
	KEYDEF(ACT_NEXT,      "n", none, 0, "next match") \
	KEYDEF(ACT_PREV,      "N", none, 0, "previous match") \
	KEYDEF(ACT_FILTER,    "|", none, 0, "show only the rows that match (empty: all)") \
	SECTION("Other") \
	KEYDEF(ACT_LOG,       "L", log, 0, "the recorded program's output (cgtui PROGRAM)") \
	KEYDEF(ACT_SNAPSHOT,  "U", none, 0, "recording: a snapshot of the running program now") \
	KEYDEF(ACT_ZERO,      "Z", none, 0, "recording: zero the counts so far (after asking)") \
	KEYDEF(ACT_PAUSE,     "p", none, 0, "recording: stop counting, or count again (the program runs on)") \
	KEYDEF(ACT_DETAIL,    "D", none, 0, "detail pane (callers and callees of the selected function) on or off") \
	KEYDEF(ACT_REDRAW,    "<C-l>", none, 0, "redraw the screen") \
	KEYDEF(ACT_QUIT,      "q Q", none, 0, "quit")
/* clang-format on */

enum action {
	ACT_NONE = 0,
#define KEYDEF_ENUM(a, k, v, f, h) a,
#define SECTION_NONE(s)
	KEY_TABLE(KEYDEF_ENUM, SECTION_NONE)
#undef KEYDEF_ENUM
#undef SECTION_NONE
	ACT_COUNT
};

/* the views' ops, declared from the table (none_ops: no view) */
struct view_ops;
#define KEYDEF_DECL(a, k, v, f, h) extern const struct view_ops v##_ops;
#define SECTION_NONE(s)
KEY_TABLE(KEYDEF_DECL, SECTION_NONE)
#undef KEYDEF_DECL
#undef SECTION_NONE

#endif
