#!/bin/sh
# completion.sh -- the bash and zsh completion scripts that make install
# puts in place (cgview/completion/) complete what profhub offers:
# subcommands, a subcommand's options (from its --help), writable formats
# for -t, readable ones for -F, the events of the profile on the command
# line for -e and -O event=, collectors for record -c, and cgview's options.
# bash drives _profhub through COMP_WORDS; zsh (when installed) calls
# _profhub with compadd/_describe/_files replaced by printers.  Skipped
# without bash.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
need_program bash

mkdir "$tmp/bin"
ln -s "$PROFHUB" "$tmp/bin/profhub"
ln -s "$PROFHUB" "$tmp/bin/cgview"
S=$SAMPLES/callgrind/chain.cache-branch.out
# Cases: the words typed (the last is the one being completed) | expected.
cat >"$tmp/cases" <<EOF2
profhub su|summary
profhub diff --ma|--match
profhub convert -t s|speedscope svg
profhub summary -F g|gmon
profhub summary $S -e D1|D1mr D1mw
profhub convert $S -o x.dot -O ev|event=Ir event=Dr event=Dw event=I1mr event=D1mr event=D1mw event=ILmr event=DLmr event=DLmw event=Bc event=Bcm event=Bi event=Bim
profhub diff --match name+file+p|name+file+program
profhub record -c pc|pcsamp
cgview --thr|--thread --threshold
cgview --dis|--disasm
profhub merge --st|--stats
EOF2

checks=$((checks + 1))
PATH=$tmp/bin:$PATH bash -c '
. "$1"
while IFS="|" read -r typed want; do
    read -r -a COMP_WORDS <<<"$typed"
    case $typed in *" ") COMP_WORDS+=("") ;; esac
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
    _profhub
    got=$(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")
    exp=$(printf "%s\n" $want | sort | tr "\n" " ")
    [ "$got" = "$exp" ] || { echo "bash: [$typed]: got [$got], expected [$exp]"; bad=1; }
done <"$2"
exit ${bad:-0}' sh "$top_srcdir/cgview/completion/profhub.bash" "$tmp/cases" ||
    fail "bash completion"

if command -v zsh >/dev/null 2>&1; then
    checks=$((checks + 1))
    PATH=$tmp/bin:$PATH zsh -f -c '
compadd() { local a; for a; do [[ $a == -S ]] && { shift 2; continue }; done
            while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift
            print -l -- "$@" }
_describe() { local n=${@[-1]}; print -l -- ${${(P)n}%%:*} }
_files() { :; }
source "$1" >/dev/null  # the file ends by calling _profhub
while IFS="|" read -r typed want; do
    words=(${=typed}); [[ $typed == *" " ]] && words+=("")
    CURRENT=$#words PREFIX=$words[-1]
    got=$(_profhub | while read -r l; do [[ $l == ${(b)PREFIX}* ]] && print -r -- $l; done | sort | tr "\n" " ")
    exp=$(print -l -- ${=want} | sort | tr "\n" " ")
    [[ $got == $exp ]] || { print "zsh: [$typed]: got [$got], expected [$exp]"; bad=1 }
done <"$2"
exit ${bad:-0}' zsh "$top_srcdir/cgview/completion/_profhub" "$tmp/cases" ||
        fail "zsh completion"
fi
finish
