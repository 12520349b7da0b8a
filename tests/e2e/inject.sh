#!/bin/sh
# inject.sh -- I/O and memory failures at every call (issue 15): with
# tests/inject/inject.c preloaded, the Nth call of write, fsync, rename,
# open or malloc fails, for every N up to the number of calls a run makes
# (every few for malloc unless INJECT_EVERY=1).
# convert, merge -o and diff -o must then exit 1 with a message (or 0 when
# the failure did not matter), never crash, leave no temporary file behind
# and leave an existing output byte-identical.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
cc=${CC:-cc}
need_program "$cc"
$cc -shared -fPIC -o "$tmp/inject.so" "$top_srcdir/tests/inject/inject.c" \
    -ldl 2>"$tmp/cc.err" || skip "cannot build the injector: $(head -1 "$tmp/cc.err")"

fns=${INJECT_FNS:-write fsync rename open malloc}
# A sanitizer build intercepts these calls itself: the shim never sees
# them (measured: 0 calls), so there is nothing to test there.
if ldd "$PROFHUB" 2>/dev/null | grep -q libasan; then
    skip "profhub is built with sanitizers, which take the calls first"
fi

a=$SAMPLES/callgrind/chain.default.out
b=$SAMPLES/callgrind/chain.callers2.out
mkdir "$tmp/o"
out=$tmp/o/out.callgrind

run_cmd() {   # run_cmd WHICH: one of the three commands into $out
    case $1 in
    convert) "$PROFHUB" convert -t callgrind "$a" -o "$out" ;;
    merge) "$PROFHUB" merge -o "$out" "$a" "$b" ;;
    diff) "$PROFHUB" diff -o "$out" "$a" "$b" ;;
    esac
}

for cmd in convert merge diff; do
    for fn in $fns; do
        printf 'previous output\n' >"$tmp/previous"
        cp "$tmp/previous" "$out"
        PH_INJECT_FN=$fn PH_INJECT_AT=0 PH_INJECT_COUNT=$tmp/count \
            LD_PRELOAD=$tmp/inject.so run_cmd $cmd >/dev/null 2>&1 ||
            fail "$cmd with the injector and no failure"
        total=$(cat "$tmp/count")
        case $fn in fsync) ;; *)
            [ "$total" -gt 0 ] || fail "$cmd: the injector saw no $fn call" ;;
        esac
        # Every N; malloc (hundreds of calls) every STEP-th unless
        # INJECT_EVERY=1, to keep make check short on a small machine.
        step=1
        [ "$fn" = malloc ] && [ "${INJECT_EVERY:-0}" != 1 ] &&
            step=$(( total / 40 + 1 ))
        n=1
        while [ "$n" -le "$total" ]; do
            checks=$((checks + 1))
            cp "$tmp/previous" "$out"
            PH_INJECT_FN=$fn PH_INJECT_AT=$n LD_PRELOAD=$tmp/inject.so \
                run_cmd $cmd >"$tmp/stdout" 2>"$tmp/err"
            st=$?
            what="$cmd, $fn call $n of $total"
            case $st in
            0) ;;
            1) [ -s "$tmp/err" ] || fail "$what: exit 1, no message"
               cmp -s "$tmp/previous" "$out" ||
                   fail "$what: the existing output changed" ;;
            *) fail "$what: exit $st"; head -3 "$tmp/err" ;;
            esac
            for f in "$tmp"/o/.*profhub-*; do
                [ -e "$f" ] && { fail "$what: left $(basename "$f")"; rm -f "$f"; }
            done
            n=$((n + step))
        done
        echo "$cmd: $fn: $total calls, every ${step}th failed once"
    done
done
finish
