#!/bin/sh
# report_shapes.sh -- every report in every format it prints, byte for byte
# against the outputs saved from the build before reports moved to one
# emitter (issue 12 item 6): the public text/CSV/JSON/YAML shapes must not
# change by accident.  Cases and how the saved outputs were made:
# tests/e2e/report_shapes/commands.  --regen rewrites the saved outputs.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

dir=$top_srcdir/tests/e2e/report_shapes
regen=no
[ "${1:-}" = --regen ] && regen=yes
cd "$SAMPLES" || exit 99
while read -r name args; do
    case $name in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086 # args are words by design
    checks=$((checks + 1))
    "$PROFHUB" $args >"$tmp/raw" 2>"$tmp/$name.err"
    st=$?
    # valgrind records absolute object paths (samples/regen.sh's machine).
    sed -E 's#/[^ ,"]*/samples/#<checkout>/samples/#g' "$tmp/raw" \
        >"$tmp/$name.out"
    [ "$st" = 0 ] || { fail "$name: exit $st: $(head -1 "$tmp/$name.err")"; continue; }
    if [ $regen = yes ]; then
        cp "$tmp/$name.out" "$dir/$name.out"
    elif ! cmp -s "$dir/$name.out" "$tmp/$name.out"; then
        fail "$name: output differs from the saved one (profhub $args)"
        diff "$dir/$name.out" "$tmp/$name.out" | head -20
    fi
done <"$dir/commands"
finish
