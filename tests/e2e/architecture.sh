#!/bin/sh
# architecture.sh -- ARCHITECTURE.md's arrows, read from the sources: which
# folder may include which, that the library never prints, and that no
# code below cgview/ asks which format a profile came from.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

cd "$top_srcdir" || exit 99

# allowed FOLDER: the folders its files may include from
allowed() {
    case $1 in
    ir) echo "ir" ;;
    importers) echo "ir importers proto runtime" ;;
    analysis) echo "ir analysis" ;;
    exporters) echo "ir analysis exporters proto" ;;
    proto) echo "ir proto" ;;
    esac
}

for dir in ir importers analysis exporters proto; do
    [ -d "$dir" ] || continue
    for f in "$dir"/*.c "$dir"/*.h; do
        [ -f "$f" ] || continue
        case $f in *.pb-c.[ch]) continue ;; esac
        grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "//; s/"$//' |
        while read -r inc; do
            case $inc in
            config.h) continue ;;
            */*) target=${inc%%/*} ;;
            *) # no folder: the file's own folder, else ir/ (-I ir)
               if [ -f "$dir/$inc" ]; then target=$dir; else target=ir; fi ;;
            esac
            case " $(allowed "$dir") " in
            *" $target "*) ;;
            *) echo "$f includes $inc ($dir/ may not include $target/)" ;;
            esac
        done
    done
done > "$tmp/arrows"
checks=$((checks + 1))
[ -s "$tmp/arrows" ] && fail "arrows against ARCHITECTURE.md:
$(cat "$tmp/arrows")"

# The library never prints: only ph_oom (ir/alloc.c) may, as documented.
# (writing into a FILE of its own, as the callgraph's pipe to dot, is
# output, not printing).
grep -nE '\b(printf|vprintf|puts|putchar|perror|exit|abort)[[:space:]]*\(|\b(fprintf|vfprintf|fputs|fputc|fwrite)[[:space:]]*\(.*\b(stdout|stderr)\b' \
    ir/*.c importers/*.c exporters/*.c analysis/*.c proto/*.c 2>/dev/null |
    grep -v '\.pb-c\.c:' | grep -v '^ir/alloc\.c:' > "$tmp/prints"
checks=$((checks + 1))
[ -s "$tmp/prints" ] && fail "library code prints: $(cat "$tmp/prints")"

# No format names downstream: the name is set by the registry and read by
# the front end only.
grep -n 'ph_profile_format[[:space:]]*(' analysis/*.c exporters/*.c \
    importers/*.c 2>/dev/null | grep -v '^importers/importer_registry\.c:' \
    > "$tmp/formats"
checks=$((checks + 1))
[ -s "$tmp/formats" ] && fail "format name asked below cgview/: $(cat "$tmp/formats")"

# The check itself sees the tree: a known arrow must be found.
checks=$((checks + 1))
grep -q '^#include "analysis/analysis.h"' exporters/callgrind_out.c ||
    fail "the sources are not where this test looks"

finish
