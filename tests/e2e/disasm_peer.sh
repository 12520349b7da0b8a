#!/bin/sh
# disasm_peer.sh -- summary --disasm FN (the instruction-level view of
# callgrind --dump-instr=yes data) on a program built and run under
# valgrind here, so its object file is present: per function, the costs
# of its addresses add up to callgrind_annotate's self cost of FN, every
# address with cost is an instruction of FN in objdump -d, the text
# printed is objdump's, and every call record sits on a call instruction.
# Without the object, addresses and costs only, with a note.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program valgrind objdump callgrind_annotate gcc python3

gcc -O1 -g "$top_srcdir/samples/src/chain.c" -o "$tmp/chain" \
    || skip "gcc cannot build samples/src/chain.c"
valgrind --tool=callgrind --dump-instr=yes \
    --callgrind-out-file="$tmp/cg.out" "$tmp/chain" >/dev/null 2>"$tmp/vg.err" \
    || skip "valgrind cannot run the program here"
callgrind_annotate --threshold=100 "$tmp/cg.out" >"$tmp/peer.txt" 2>/dev/null \
    || { fail "callgrind_annotate failed"; finish; }
objdump -d -C -w "$tmp/chain" >"$tmp/objdump.txt" \
    || { fail "objdump failed"; finish; }

# FN's instructions in objdump -d: "ADDR<TAB>TEXT" from its <FN>: block.
objdump_fn() {
    awk -v fn="$1" '
        $0 ~ "^[0-9a-f]+ <" fn ">:$" { on = 1; next }
        on && /^$/ { exit }
        on {
            n = split($0, f, "\t")
            if (n < 3) next
            a = f[1]; sub(/^ */, "", a); sub(/:$/, "", a)
            t = f[3]; for (i = 4; i <= n; i++) t = t "\t" f[i]
            sub(/ +$/, "", t)
            print "0x" a "\t" t
        }' "$tmp/objdump.txt"
}

check_fn() {
    fn=$1
    checks=$((checks + 1))
    testrun "$PROFHUB" summary --disasm "$fn" -f json "$tmp/cg.out"
    [ "$status" = 0 ] || { fail "$fn: profhub exited $status"; cat "$tmp/err"; return; }
    cp "$tmp/out" "$tmp/$fn.json"
    peer=$(grep "[:]$fn \[" "$tmp/peer.txt" | head -1 | awk '{print $1}' | tr -d ,)
    [ -n "$peer" ] || { fail "$fn: not in callgrind_annotate's list"; return; }
    objdump_fn "$fn" >"$tmp/$fn.objdump"
    [ -s "$tmp/$fn.objdump" ] || { fail "$fn: not in objdump -d"; return; }
    python3 - "$tmp/$fn.json" "$tmp/$fn.objdump" "$peer" "$fn" <<'PY' \
        >"$tmp/$fn.diff" || fail "$fn: $(cat "$tmp/$fn.diff")"
import json, sys
doc = json.load(open(sys.argv[1]))
insns = dict(l.rstrip("\n").split("\t", 1) for l in open(sys.argv[2]))
peer, fn = int(sys.argv[3]), sys.argv[4]
funcs = [f for f in doc["functions"] if f["name"] == fn]
if len(funcs) != 1:
    sys.exit("%d entries named %s" % (len(funcs), fn))
f = funcs[0]
bad = []
total = sum(i["self"]["Ir"] for i in f["instructions"])
if total != peer:
    bad.append("addresses sum to %d, callgrind_annotate says %d" % (total, peer))
if f["self"]["Ir"] != peer:
    bad.append("self %d, callgrind_annotate says %d" % (f["self"]["Ir"], peer))
if f["disassembly"] is None:
    bad.append("no disassembly: %s" % f["note"])
for i in f["instructions"]:
    a = i["address"]
    if a not in insns:
        bad.append("%s: not an instruction of %s in objdump -d" % (a, fn))
    elif i["text"] != insns[a]:
        bad.append("%s: %r, objdump says %r" % (a, i["text"], insns[a]))
    if i["calls"] and not insns.get(a, "").startswith("call"):
        bad.append("%s: call records on %r" % (a, insns.get(a)))
if not f["instructions"]:
    bad.append("no instructions")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
}

check_fn checksum_block
check_fn hot_loop
check_fn main
check_fn run_round

# main calls run_round from one address: the call records are there.
checks=$((checks + 1))
python3 -c '
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["functions"]][0]
n = sum(c["calls"] for i in f["instructions"] for c in i["calls"]
        if c["name"] == "run_round")
sys.exit(0 if n == 3 else "main calls run_round %d times, chain.c: 3" % n)
' "$tmp/main.json" || fail "main: call records"

# The text view: each costly address, objdump's instruction after it.
checks=$((checks + 1))
testrun "$PROFHUB" summary --disasm checksum_block "$tmp/cg.out"
first=$(head -1 "$tmp/checksum_block.objdump")
a=${first%%	*} t=${first#*	}
grep -F "$t" "$tmp/out" | grep -q " $a  *" \
    || fail "text view: no line for $a with \"$t\""

# Without the object file: addresses and costs, a note, exit 0.
checks=$((checks + 1))
rm "$tmp/chain"
testrun "$PROFHUB" summary --disasm checksum_block "$tmp/cg.out"
[ "$status" = 0 ] || fail "no object: exit $status"
grep -q "no disassembly: .*addresses and costs only" "$tmp/out" \
    || fail "no object: no note in the text view"
grep -Eq "^ *[0-9,]+ \( *[0-9.]+%\) $a\$" "$tmp/out" \
    || fail "no object: no bare address line for $a"

# A function that is not there.
checks=$((checks + 1))
expect_status 1 "$PROFHUB" summary --disasm no_such_function "$tmp/cg.out"
finish
