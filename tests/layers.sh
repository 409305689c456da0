#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# layers.sh - the architecture, held: each part of src/ includes only the
# parts below it, no header includes itself through others, the core never
# prints, and the worker (linked into the static 32-bit helper) needs
# nothing but libc. Prints TAP.
#
#   core <- bench  <- run, output
#   core <- record <- run, store <- output <- compare <- report <- cli
#   core <- check, inspect <- cli
#   every part <- main (the programs' entry points)  (allowed() below: exactly)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
i=0
status=0

tap() {
	i=$((i + 1))
	if [ "$1" = ok ]; then
		echo "ok $i - $2"
	else
		echo "not ok $i - $2"
		status=1
	fi
}

allowed() {
	case $1 in
	core) echo "core" ;;
	bench) echo "core bench" ;;
	record) echo "core record" ;;
	run) echo "core bench record run" ;;
	store) echo "core record store" ;;
	check) echo "core check" ;;
	inspect) echo "core inspect" ;;
	output) echo "core bench record store output" ;;
	compare) echo "core bench record store output compare" ;;
	report) echo "core bench record store output compare report" ;;
	cli) echo "core bench record run store check inspect output compare report cli" ;;
	main) echo "$parts" ;;
	esac
}

# the part that holds header $1, or "include" for the public one
part_of() {
	[ -f "include/$1" ] && { echo include; return; }
	for d in src/*/; do
		[ -f "$d$1" ] && { basename "$d"; return; }
	done
	echo "?"
}

parts="core bench record run store check inspect output compare report cli main"
# every folder of src is a part this script knows
for d in src/*/; do
	case " $parts " in
	*" $(basename "$d") "*) ;;
	*) tap "not ok" "$d is a part that tests/layers.sh does not know" ;;
	esac
done

for part in $parts; do
	bad=""
	for f in src/$part/*.c src/$part/*.h; do
		[ -f "$f" ] || continue
		for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			p=$(part_of "$h")
			[ "$p" = include ] && continue
			case " $(allowed $part) " in
			*" $p "*) ;;
			*) bad="$bad $f->$h($p)" ;;
			esac
		done
	done
	if [ -z "$bad" ]; then
		tap ok "src/$part includes only $(allowed $part)"
	else
		tap "not ok" "src/$part reaches above itself:$bad"
	fi
done

# no include circle among the headers (depth-first search over the graph)
edges=$(for f in include/*.h src/*/*.h; do
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		echo "${f##*/} $h"
	done
done)
cycle=$(echo "$edges" | awk '
	NF == 2 { adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] }
	function dfs(n,    k, m, parts) {
		state[n] = 1; stack[++sp] = n
		split(adj[n], parts, " ")
		for (k in parts) {
			m = parts[k]
			if (state[m] == 1) { found = found " " m "<-" n; continue }
			if (!state[m]) dfs(m)
		}
		state[n] = 2; sp--
	}
	END { for (n in nodes) if (!state[n]) dfs(n); print found }')
if [ -z "$(echo $cycle)" ]; then
	tap ok "no include circle among the headers"
else
	tap "not ok" "include circle:$cycle"
fi

# the core returns errors; only the front end prints
prints=$(grep -n '\b\(printf\|fprintf\|puts\|fputs\|perror\|putchar\)\s*(' src/core/*.c | grep -v '^\S*:\s*\*\|//')
if [ -z "$prints" ]; then
	tap ok "src/core never prints"
else
	tap "not ok" "src/core prints: $(echo "$prints" | head -3)"
fi

# what the 32-bit helper links: libc only
worker=$(sed -n '/^WORKER_SRC :=/,/[^\\]$/p' Makefile | tr -d '\\' | sed 's/WORKER_SRC :=//')
libs=$(grep -l '#include <\(jansson\|json-c\|sqlite3\)' $worker src/core/*.c src/bench/*.c 2>/dev/null)
if [ -n "$worker" ] && [ -z "$libs" ]; then
	tap ok "the worker, the core and the benchmarks need only libc"
else
	tap "not ok" "libc-only code includes a library:$libs"
fi

# the store: each backend's file includes its own library only, and the
# door (store.c, store.h, store-backend.h) neither
mixed=""
grep -q '#include <sqlite3.h>' src/store/store-pg.c src/store/store-pg.h && mixed="$mixed store-pg:sqlite3"
grep -q '#include <libpq-fe.h>' src/store/store-sqlite.c src/store/store-sqlite.h && mixed="$mixed store-sqlite:libpq"
grep -lq '#include <\(sqlite3\|libpq-fe\).h>' src/store/store.c src/store/store.h src/store/store-backend.h &&
	mixed="$mixed store.c/store.h/store-backend.h"
if [ -z "$mixed" ]; then
	tap ok "each store backend includes only its own library; the store's door none"
else
	tap "not ok" "store files include another backend's library:$mixed"
fi

# JSON is read through one door: the library in src/record/jv.c alone
json=$(grep -l '#include <\(jansson\|json-c/[a-z_]*\).h>' src/*/*.c src/*/*.h | grep -v '^src/record/jv.c$')
if [ -z "$json" ]; then
	tap ok "only src/record/jv.c includes the JSON library"
else
	tap "not ok" "the JSON library included beside jv.c: $(echo $json)"
fi

# floors, pooling and the busy rule are compare's (the layers keep the
# store from reaching them): a store returns rows and computes no statistic
stat=$(grep -l '#include "\(stats\|twosample\)\.h"' src/store/*.[ch])
if [ -z "$stat" ]; then
	tap ok "the store computes no statistic of what it returns"
else
	tap "not ok" "statistics in the store: $(echo $stat)"
fi

# a run's descriptions are parsed once, by the record (desc.h): parsed JSON
# is the record's, and the store's for the documents it keeps of its own
parsers=$(grep -l '#include "jv.h"' src/*/*.c src/*/*.h | grep -v '^src/record/\|^src/store/store-sqlite.c$')
if [ -z "$parsers" ]; then
	tap ok "JSON is parsed in src/record/ (and the store's own documents) alone"
else
	tap "not ok" "JSON parsed outside the record: $(echo $parsers)"
fi

# output prints what benchmarks say of their figures (bench/notes.h) and
# knows none of them by name or by its own header
named=$(grep -nE '"(lab|time|syscall|copy|sched|random|cpu|harness)\.[a-z]' src/output/*.c)
own=$(for h in src/bench/*.h; do
	[ "$h" = src/bench/notes.h ] || grep -l "#include \"$(basename "$h")\"" src/output/*.[ch]
done)
if [ -z "$named$own" ]; then
	tap ok "src/output names no benchmark and includes none of their headers"
else
	tap "not ok" "src/output knows benchmarks: $(printf "%s %s" "$named" "$own" | head -c 300)"
fi

# a function reads whole: none over 100 lines (from its name to its brace)
long=$(for f in src/*/*.c; do
	awk -v f="$f" '/^[a-z].*\(/ && !/;$/ { name = $0; start = NR }
		/^}/ && start { if (NR - start > 100) print f ":" start; start = 0 }' "$f"
done)
if [ -z "$long" ]; then
	tap ok "no function over 100 lines"
else
	tap "not ok" "functions over 100 lines: $(echo $long)"
fi

# a header's guard names its folder and file, so that a moved file says so
guards=""
for h in src/*/*.h; do
	d=$(basename "$(dirname "$h")" | tr a-z A-Z)
	b=$(basename "$h" .h | tr a-z- A-Z_)
	g=$(grep -m1 '^#ifndef' "$h" | awk '{ print $2 }')
	[ "$g" = "UKB_${d}_${b}_H" ] || guards="$guards $h:$g"
done
if [ -z "$guards" ]; then
	tap ok "every header's guard names its folder and file"
else
	tap "not ok" "guards that name another place:$guards"
fi

echo "1..$i"
exit $status
