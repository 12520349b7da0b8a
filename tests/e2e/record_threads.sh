#!/bin/sh
# record_threads.sh -- profhub record on a pthreads program
# (tests/e2e/src/rec_threads.c: three workers, one function each): one part
# per thread, and each worker's function lives in its own part.
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
finish
