#!/bin/sh
# record_threads.sh -- profhub record on a pthreads program
# (tests/e2e/src/rec_threads.c: three workers, one function each): one part
# per thread, and each worker's function lives in its own part; its
# conversion is the same from run to run.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/record_lib.sh"

build rec_threads "$top_srcdir/tests/e2e/src/rec_threads.c" -pthread
cd "$tmp" || exit 99

./rec_threads >plain.out
expect_status 0 "$PROFHUB" record -c usertime -o th.phx -- ./rec_threads
cmp -s plain.out "$tmp/out" || fail "stdout differs under profhub record"

parts=$("$PROFHUB" info th.phx | awk '/^parts:/ { print $2 }')
echo "threads: $parts parts"
[ "${parts:-0}" -ge 3 ] || fail "expected a part per worker thread, got $parts"
seen=
i=1
while [ "$i" -le "${parts:-0}" ]; do
    for fn in work_a work_b work_c; do
        "$PROFHUB" summary --format csv -n 0 --part "$i" th.phx >part.csv
        v=$(csv_get part.csv name "$fn" incl_samples)
        if [ -n "$v" ] && [ "$v" -gt 0 ]; then
            case " $seen " in
            *" $fn "*) fail "$fn has samples in two parts" ;;
            esac
            seen="$seen $fn"
        fi
    done
    i=$((i + 1))
done
for fn in work_a work_b work_c; do
    case " $seen " in
    *" $fn "*) ;;
    *) fail "$fn has no samples in any part" ;;
    esac
done

# The same data gives the same bytes: the reader's samples came in the
# order of a table hashed by addresses, which move from run to run.
for i in 1 2 3 4; do
    expect_status 0 "$PROFHUB" convert -t callgrind -o "conv$i.out" th.phx
done
for i in 2 3 4; do
    cmp -s conv1.out "conv$i.out" || fail "callgrind output of run $i differs"
done
finish
