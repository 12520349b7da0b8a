#!/bin/sh
# parse_jobs.sh -- the callgrind reader's look-ahead threads (--jobs N,
# PROFHUB_JOBS) give byte for byte what one thread gives: summary, info and
# the callgrind file convert writes (rows, calls and jumps in their order),
# and the pprof and DrCCTProf files (whose string tables start with the
# functions' names, written by a second thread, and whose stacks, made
# from the flat data, split the functions' costs in two halves side by
# side on the big file), on every real sample, on
# a multi-megabyte file valgrind makes here, and on copies of that file
# with a bad cost line, a NUL byte or CRLF line ends half-way through
# (exact errors).  So does diff, which reads its two files
# and builds their tables side by side: its report, and its errors in the
# order of the files.  The pprof and DrCCTProf readers, whose memory
# blocks another thread makes ready (and, for pprof, the frames' indices
# and the locations' tables): the same, on the real samples and on the
# big file converted.  The cachegrind reader, which the same threads
# serve: the same, and what the parser alone gives (a pipe, one job), on
# the samples and on broken copies.  The pprof reader, which gives back
# the inflated bytes it has read: the big file gzip'd reads as its plain
# copy.  valgrind or perl missing => skip (77).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program valgrind perl

# ph J ARGS...: profhub with J threads (J=env: PROFHUB_JOBS=2)
ph() {
    j=$1
    shift
    if [ "$j" = env ]; then
        PROFHUB_JOBS=2 "$PROFHUB" "$@"
    else
        "$PROFHUB" --jobs "$j" "$@"
    fi
}

# same_runs WHAT: out.1 (one thread) against out.3 and out.env
same_runs() {
    checks=$((checks + 1))
    if ! cmp -s "$tmp/out.1" "$tmp/out.3" ||
       ! cmp -s "$tmp/out.1" "$tmp/out.env"; then
        fail "$1: threads change the result"
        diff "$tmp/out.1" "$tmp/out.3" | head -5
        diff "$tmp/out.1" "$tmp/out.env" | head -5
    fi
}

# same FILE: one thread against three and against PROFHUB_JOBS=2
same() {
    for j in 1 3 env; do
        { ph $j summary -n 0 "$1"; echo "status $?"
          ph $j info "$1"; echo "status $?"
          ph $j convert -t callgrind -o - "$1"; echo "status $?"
          for to in pprof drcctprof; do
              # to a file: the warnings come before its bytes however the
              # threads write them
              ph $j convert -t $to -o "$tmp/$to.$j" "$1"; echo "status $?"
              cat "$tmp/$to.$j" 2>/dev/null
          done
        } >"$tmp/out.$j" 2>&1
    done
    same_runs "$1"
}

# broken NAME...: $tmp/NAME.out read with threads: an error at a line and
# column, exit 1
broken() {
    for f in "$@"; do
        checks=$((checks + 1))
        ph 3 summary "$tmp/$f.out" >/dev/null 2>"$tmp/err"
        st=$?
        [ $st = 1 ] && grep -q "^$tmp/$f.out:[0-9]*:[0-9]*: " "$tmp/err" ||
            fail "$f.out: exit $st, no error with a position: $(cat "$tmp/err")"
    done
}

# same_diff BASE NEW: diff's report, or its error, the same way
same_diff() {
    for j in 1 3 env; do
        { ph $j diff -n 0 "$1" "$2"; echo "status $?"; } >"$tmp/out.$j" 2>&1
    done
    same_runs "diff $1 $2"
}

for f in "$SAMPLES"/callgrind/*.out*; do
    same "$f"
done

# A file of some megabytes: perl under callgrind with instructions, jumps
# and --separate-callers (long names, compressed ids used far from where
# they are defined).
big=$tmp/big.out
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --separate-callers=12 --callgrind-out-file="$big" \
    perl -e 'my %h; $h{$_} = sqrt($_) for 1..20000; print scalar(keys %h)' \
    >/dev/null 2>"$tmp/vg.err" || { cat "$tmp/vg.err"; exit 99; }
size=$(wc -c <"$big")
[ "$size" -gt 1000000 ] || { echo "ERROR: valgrind wrote $size bytes"; exit 99; }
grep -q '^jcnd=' "$big" || { echo "ERROR: no jumps in $big"; exit 99; }
same "$big"

# Copies broken two thirds of the way in, where a worker reads them.
at=$(($(wc -l <"$big") * 2 / 3))
perl -ne "print(\$. >= $at && /^\\+/ && !\$d++ ? \"+1 1.5 x\\n\" : \$_)" \
    "$big" >"$tmp/badcost.out"
perl -ne "print(\$. >= $at && /^\\+/ && !\$d++ ? \"+99999999999999999999 1\\n\" : \$_)" \
    "$big" >"$tmp/overflow.out"
perl -ne "print(\$. == $at ? \"\\0\$_\" : \$_)" "$big" >"$tmp/nul.out"
perl -pe 's/\n/\r\n/' "$big" >"$tmp/crlf.out"
for f in badcost overflow nul crlf; do
    same "$tmp/$f.out"
done
# callgrind: the threads make runs of cost lines into rows (positions
# relative to the line before); alone (stdin from a pipe, one job) the
# parser reads every line.  Both ways the same, on the samples, the big
# file and copies changed inside a run two thirds of the way in: an
# address below 0 and a line number past 32 bits (errors), an absolute
# address after relative ones, a count written "+5", a blank line and a
# comment between a call and its cost line, CRLF.
# parser_same FILE: summary and convert -t callgrind both ways (of a copy:
# a file's sibling dumps are read with it, not with standard input)
parser_same() {
    [ -s "$1" ] || return 0     # standard input empty: another message
    checks=$((checks + 1))
    one=$tmp/one.out
    cp "$1" "$one"
    { ph 1 summary -n 0 - <"$one"; echo "status $?"
      ph 1 convert -t callgrind -o - - <"$one"; echo "status $?"; } 2>&1 |
        sed 's|^<stdin>:|F:|; s|^profile:  - |profile:  F |' >"$tmp/parser"
    { ph 3 summary -n 0 "$one"; echo "status $?"
      ph 3 convert -t callgrind -o - "$one"; echo "status $?"; } 2>&1 |
        sed "s|^$one:|F:|; s|^profile:  $one |profile:  F |" >"$tmp/threads"
    cmp -s "$tmp/parser" "$tmp/threads" || {
        fail "$1: the threads read otherwise than the parser"
        diff "$tmp/parser" "$tmp/threads" | head -5
    }
}
inrun() { # NAME PERL-SUBSTITUTION: the first "+" line after another, changed
    perl -ne "if (\$. >= $at && /^\\+/ && \$prev && !\$d++) { $2 } print; \$prev = /^\\+/" \
        "$big" >"$tmp/$1.out"
}
inrun under 's/^\+\S+/-99999999999/'
inrun bigline 's/^(\S+) \S+/$1 4294967296/'
inrun absaddr 's/^\+\S+/0x400000/'
inrun pluscount 's/^(\S+ \S+) (\d+)/$1 +$2/'
perl -ne "print; print \"\\n# between\\n\" if \$. >= $at && /^calls=/ && \$n++ < 3" \
    "$big" >"$tmp/callgap.out"
for f in "$SAMPLES"/callgrind/*.out* "$big" "$tmp"/badcost.out \
         "$tmp"/crlf.out "$tmp"/under.out "$tmp"/bigline.out \
         "$tmp"/absaddr.out "$tmp"/pluscount.out "$tmp"/callgap.out; do
    parser_same "$f"
done
broken under bigline
# cachegrind: the threads find the lines and parse the count lines, the
# parser reads the rest; alone (stdin from a pipe, one job) it reads every
# line.  Both ways the same, on the samples and on copies broken two
# thirds of the way in: a count line after a blank (an error; cg_annotate
# calls it malformed), a bad count, a NUL byte, CRLF line ends; and on
# copies whose sums the "summary:" line checks: a count line after a new
# "fl=" (no function: the parser's "???"), a count changed (a warning
# with the sum of the counts, most of them packed by the threads).
cg=$SAMPLES/cachegrind/shapes.default.out
at=$(($(wc -l <"$cg") * 2 / 3))
perl -ne "print(\$. >= $at && /^[0-9]/ && !\$d++ ? \" \$_\" : \$_)" \
    "$cg" >"$tmp/cgblank.out"
perl -ne "print(\$. >= $at && /^[0-9]/ && !\$d++ ? \"7 1.5\\n\" : \$_)" \
    "$cg" >"$tmp/cgbad.out"
perl -ne "print(\$. == $at ? \"\\0\$_\" : \$_)" "$cg" >"$tmp/cgnul.out"
perl -pe 's/\n/\r\n/' "$cg" >"$tmp/cgcrlf.out"
perl -ne "print(\$. >= $at && /^[0-9]/ && !\$d++ ? \"fl=other.c\n\$_\" : \$_)" \
    "$cg" >"$tmp/cgfl.out"
perl -ne "print(\$. >= $at && /^[0-9]/ && !\$d++ ? \"1\$_\" : \$_)" \
    "$cg" >"$tmp/cgsum.out"
for f in "$SAMPLES"/cachegrind/*.out "$tmp"/cg*.out; do
    same "$f"
    checks=$((checks + 1))
    { cat "$f" | ph 1 summary -n 0 -; echo "status $?"; } 2>&1 |
        sed 's|^<stdin>:|F:|; s|^profile:  - |profile:  F |' >"$tmp/parser"
    { ph 3 summary -n 0 "$f"; echo "status $?"; } 2>&1 |
        sed "s|^$f:|F:|; s|^profile:  $f |profile:  F |" >"$tmp/threads"
    cmp -s "$tmp/parser" "$tmp/threads" || {
        fail "$f: the threads read otherwise than the parser"
        diff "$tmp/parser" "$tmp/threads" | head -5
    }
done
broken cgblank cgbad cgnul
for f in "$SAMPLES"/pprof/*.pb.gz "$SAMPLES"/easyview/*.ezview; do
    same "$f"
done
"$PROFHUB" convert -t pprof -o "$tmp/big.pb.gz" "$big" 2>/dev/null &&
    "$PROFHUB" convert -t drcctprof -o "$tmp/big.drcctprof" "$tmp/big.pb.gz" \
        2>/dev/null || { echo "ERROR: cannot convert $big"; exit 99; }
same "$tmp/big.pb.gz"
same "$tmp/big.drcctprof"
# The pprof reader gives back the inflated bytes it has read (2.7 MB here,
# given back by 2 MiB): the gzip'd file reads as its plain copy (mapped).
gzip -dc "$tmp/big.pb.gz" >"$tmp/big.pb"
for f in big.pb.gz big.pb; do
    { ph 1 summary -n 0 "$tmp/$f"; ph 1 convert -t callgrind -o - "$tmp/$f"
    } 2>&1 | sed "s|$tmp/$f|F|g" >"$tmp/read.$f"
done
checks=$((checks + 1))
cmp -s "$tmp/read.big.pb.gz" "$tmp/read.big.pb" ||
    fail "the gzip'd pprof file reads otherwise than its plain copy"
same_diff "$SAMPLES/callgrind/chain.default.out" "$big"
same_diff "$big" "$tmp/crlf.out"
same_diff "$big" "$tmp/badcost.out"
same_diff "$tmp/nul.out" "$big"
same_diff "$tmp/nul.out" "$tmp/badcost.out"
# ... and they are broken: an error at a line and column, exit 1.
broken badcost overflow nul
# A diff of two broken files names the first one's error only, as when
# they are read one after the other.
checks=$((checks + 1))
ph 3 diff "$tmp/nul.out" "$tmp/badcost.out" >/dev/null 2>"$tmp/err"
st=$?
[ $st = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
    grep -q "^$tmp/nul.out:[0-9]*:[0-9]*: " "$tmp/err" ||
    fail "diff of two broken files: exit $st: $(cat "$tmp/err")"
finish
