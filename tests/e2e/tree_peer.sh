#!/bin/sh
# tree_peer.sh -- callers and callees (summary --tree) of every function
# against callgrind_annotate --tree=both --inclusive=yes, live, on every
# single-file callgrind sample: the same calls on every arc, including
# self-recursive ones (fib'2 -> fib'2); the same inclusive cost on every
# arc that is not recursive; recursive arcs (to the function itself or
# within its cycle) carry calls only, as gprof shows them, so that no arc
# exceeds the inclusive cost of its callee (of its cycle, for a member)
# or the total.  tests/e2e/treecmp does the comparing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program callgrind_annotate perl
perl -MJSON::PP -e 1 2>/dev/null || skip "no perl JSON::PP"
TC="perl $top_srcdir/tests/e2e/treecmp"
mkdir "$tmp/cwd"
recursive=0
for sample in "$SAMPLES"/callgrind/*.out; do
    [ -s "$sample" ] || continue
    name=$(basename "$sample")
    # One dump of one thread per run of callgrind_annotate (runs of
    # several files: peer_callgrind.sh); on combined dumps the peer
    # counts calls again (profhub.1, PEERS).
    case $name in chain.dumps.out|threads.sep*|chain.combined.out) continue ;; esac
    d=$tmp/$name
    mkdir "$d"
    cp "$sample" "$d/in.out"
    checks=$((checks + 1))
    (cd "$tmp/cwd" && callgrind_annotate --tree=both --inclusive=yes \
        --threshold=100 --show-percs=no --auto=no "$d/in.out") \
        >"$d/peer.txt" 2>"$d/peer.err" \
        || { fail "callgrind_annotate failed on $name"; cat "$d/peer.err"; continue; }
    "$PROFHUB" summary --tree -f json -n 0 "$d/in.out" >"$d/ours.json" \
        2>"$d/err" && "$PROFHUB" summary -f json -n 0 "$d/in.out" \
        >"$d/table.json" 2>>"$d/err" \
        || { fail "profhub summary failed on $name"; cat "$d/err"; continue; }
    if $TC "$d/in.out" "$d/peer.txt" "$d/ours.json" "$d/table.json" >"$d/cmp"; then
        echo "ok   $name: $(tail -1 "$d/cmp")"
        n=$(sed -n 's/.*arcs (\([0-9]*\) recursive).*/\1/p' "$d/cmp")
        recursive=$((recursive + ${n:-0}))
    else
        fail "$name: $(tail -1 "$d/cmp")"
        head -10 "$d/cmp"
    fi
done
[ $checks -gt 0 ] || skip "no callgrind samples"
# The recursion samples have self calls and a cycle: the test must meet
# recursive arcs, or it proves nothing about them.
[ $recursive -gt 0 ] || fail "no recursive arc met"

# The text view: a recursive arc shows its calls, no cost.
r=$SAMPLES/callgrind/recursion.default.out
if [ -s "$r" ]; then
    testrun "$PROFHUB" summary --callers "fib'2" "$r"
    grep -q "^ *8,358  < fib'2 (recursive)" "$tmp/out" \
        || { fail "--callers fib'2: no recursive arc line"; show_output; }
fi
finish
