#!/bin/sh
# disasm_jumps.sh -- summary --disasm shows the jumps of callgrind
# --collect-jumps=yes data at their instructions (issue 17), as
# KCachegrind's machine-code view does.  samples/src/chain.c is built and
# run under valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes
# here; then for every function of the program with jump records, the
# jumps in summary --disasm -f json equal the jump=/jcnd= lines callgrind
# wrote (read here on their own: source address = the position line after
# the record, target relative to the last position; summed per source,
# target and kind), each source is a jump instruction in objdump -d whose
# direct target is the recorded one, and the text view prints each.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program valgrind objdump gcc python3

gcc -O1 -g "$top_srcdir/samples/src/chain.c" -o "$tmp/chain" \
    || skip "gcc cannot build samples/src/chain.c"
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
    --callgrind-out-file="$tmp/cg.out" "$tmp/chain" >/dev/null 2>"$tmp/vg.err" \
    || skip "valgrind cannot run the program here"
objdump -d -w "$tmp/chain" >"$tmp/objdump.txt" || { fail "objdump failed"; finish; }

# callgrind's jump records of the program's own functions, one per line:
# "fn<TAB>source<TAB>target<TAB>kind<TAB>executed<TAB>taken"
python3 - "$tmp/cg.out" "$tmp/chain" >"$tmp/want" <<'PY' || fail "cannot read cg.out"
import re, sys
names, objs = {}, {}
def name(tab, v):
    m = re.match(r'\((\d+)\)(?: (.*))?$', v)
    if not m:
        return v
    if m.group(2) is not None:
        tab[m.group(1)] = m.group(2)
    return tab[m.group(1)]
def pos(tok, last):
    if tok == '*':
        return last
    if tok[0] in '+-':
        return last + int(tok, 0)
    return int(tok, 0)
last, fn, ob, pend, want = 0, None, None, None, {}
for ln in open(sys.argv[1]):
    ln = ln.rstrip('\n')
    if ln.startswith('part:'):
        last = 0
    elif ln.startswith('fn='):
        fn = name(names, ln[3:])
    elif ln.startswith(('cfn=', 'jfn=')):   # one name table for all three
        name(names, ln[4:])
    elif ln.startswith('ob='):
        ob = name(objs, ln[3:])
    elif ln.startswith('cob='):
        name(objs, ln[4:])
    elif ln.startswith(('jump=', 'jcnd=')):
        f = ln[5:].split()
        if ln.startswith('jcnd='):
            taken, ex = map(int, f[0].split('/'))
        else:
            taken = ex = int(f[0])
        # no target: unknown (KCachegrind reads it so too)
        pend = (ln[:4], ex, taken, pos(f[1], last) if len(f) > 1 else 0)
    elif ln and ln[0] in '0123456789+-*':
        a = pos(ln.split()[0], last)
        last = a
        if pend and ob == sys.argv[2]:
            k = (fn, a, pend[3], pend[0])
            e, t = want.get(k, (0, 0))
            want[k] = (e + pend[1], t + pend[2])
        pend = None
    elif ln.startswith('calls='):
        pend = None
for (fn, a, t, kind), (e, tk) in sorted(want.items()):
    print('%s\t0x%x\t0x%x\t%s\t%d\t%d' % (fn, a, t, kind, e, tk))
PY
[ -s "$tmp/want" ] || { fail "no jump records of the program in cg.out"; finish; }
fns=$(cut -f1 "$tmp/want" | sort -u | tr '\n' '|' | sed 's/|$//')
checks=$((checks + 1))
testrun "$PROFHUB" summary --disasm "^($fns)\$" -f json "$tmp/cg.out"
[ "$status" = 0 ] || { fail "--disasm -f json exited $status"; cat "$tmp/err"; finish; }
python3 - "$tmp/out" "$tmp/want" "$tmp/objdump.txt" <<'PY' >"$tmp/diff" ||
import json, re, sys
got = {}
for f in json.load(open(sys.argv[1]))['functions']:
    for i in f['instructions']:
        for j in i.get('jumps', []):
            k = (f['name'], i['address'], j['target'],
                 'jcnd' if j['conditional'] else 'jump')
            got[k] = (j['executed'], j['taken'], i['text'])
want = {}
for ln in open(sys.argv[2]):
    fn, a, t, kind, e, tk = ln.rstrip('\n').split('\t')
    want[(fn, a, t, kind)] = (int(e), int(tk))
insn = {}
for ln in open(sys.argv[3]):
    m = re.match(r'^\s*([0-9a-f]+):\t[^\t]*\t(.*)$', ln.rstrip())
    if m:
        insn['0x' + m.group(1)] = m.group(2)
bad = []
for k in sorted(set(want) | set(got)):
    if k not in got:
        bad.append('missing %s' % (k,))
    elif k not in want:
        bad.append('extra %s' % (k,))
    elif want[k] != got[k][:2]:
        bad.append('%s: callgrind %s, profhub %s' % (k, want[k], got[k][:2]))
    if k not in got:
        continue
    text = insn.get(k[1], '')
    m = re.match(r'^(j\w+|bnd j\w+)\s+([0-9a-f]+)\b', text)
    if not text.startswith(('j', 'bnd j')):
        bad.append('%s: not a jump in objdump: %r' % (k[1], text))
    elif m and '0x' + m.group(2) != k[2]:
        bad.append('%s: objdump jumps to 0x%s, record to %s' % (k[1], m.group(2), k[2]))
    if got[k][2] != text:
        bad.append('%s: text %r, objdump %r' % (k[1], got[k][2], text))
print('\n'.join(bad))
print('%d jumps compared' % len(want), file=sys.stderr)
sys.exit(1 if bad or not want else 0)
PY
    { fail "--disasm jumps differ from callgrind's records"; cat "$tmp/diff"; }
cat "$tmp/err"

# The text view prints each jump: "jcnd to 0x...: taken T of E".
checks=$((checks + 1))
testrun "$PROFHUB" summary --disasm checksum_block "$tmp/cg.out"
want=$(awk -F'\t' '$1 == "checksum_block" && $4 == "jcnd"' "$tmp/want" | head -1)
if [ -z "$want" ]; then
    fail "checksum_block has no conditional jump in cg.out"
else
    line=$(echo "$want" | python3 -c '
import sys
fn, a, t, kind, e, tk = sys.stdin.read().rstrip("\n").split("\t")
print("jcnd to %s line [0-9]+: taken %s of %s " % (t, format(int(tk), ","), format(int(e), ",")))')
    grep -Eq "$line" "$tmp/out" || { fail "text: no line like \"$line\""; show_output; }
fi
finish
