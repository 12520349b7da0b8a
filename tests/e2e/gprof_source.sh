#!/bin/sh
# gprof_source.sh -- `summary --gprof --annotate main` against GNU gprof -A
# (issue 17 item 8): main's source file with the calls into each function
# at its entry line ("#####" for none), as gprof -b -A prints that file.
# gprof -A annotates every file it knows and ends with "Top 10 Lines" and
# an "Execution Summary", which profhub leaves out: the test compares
# main's file's section.  Exit 77 when gprof is missing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

need_program gprof
set -- "$top_srcdir"/samples/gmon/*/gmon.out
[ -f "$1" ] || skip "no samples/gmon/*/gmon.out"
src=$(cd "$top_srcdir" && pwd)
ph=$PROFHUB
case $ph in /*) ;; *) ph=$(pwd)/$ph ;; esac

for gm in "$@"; do
    d=$(cd "$(dirname "$gm")" && pwd) name=$(basename "$(dirname "$gm")")
    # the samples name their sources relative to the top directory
    (cd "$d" && "$ph" summary --exe prog --gprof --annotate main \
        --source-dir "$src" gmon.out) >"$tmp/got.$name" 2>"$tmp/err" ||
        { fail "$name: profhub: $(cat "$tmp/err")"; continue; }
    file=$(sed -n '1s/^\*\*\* File \(.*\):$/\1/p' "$tmp/got.$name")
    [ -n "$file" ] || { fail "$name: no file header"; continue; }
    (cd "$d" && gprof -b -A -I "$src" prog gmon.out) 2>/dev/null |
        awk -v f="*** File $file:" '
            /^\*\*\* File / || /^Top 10 Lines:/ { on = ($0 == f) }
            on' >"$tmp/want.$name"
    [ -s "$tmp/want.$name" ] ||
        { fail "$name: gprof -A printed no section for $file"; continue; }
    grep -q '^ *[0-9#]* -> ' "$tmp/want.$name" ||
        fail "$name: gprof -A marked no entry line"
    if cmp -s "$tmp/want.$name" "$tmp/got.$name"; then
        echo "$name: $file: $(grep -c '^ *[0-9#]* -> ' "$tmp/got.$name") entry lines equal"
    else
        diff "$tmp/want.$name" "$tmp/got.$name" | head -20
        fail "$name: differs from gprof -b -A"
    fi
done
finish
