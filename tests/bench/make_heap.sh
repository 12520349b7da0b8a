#!/bin/sh
# make_heap.sh -- make a Go heap profile with very many distinct stacks for
# `make bench` (src/manystacks.go).  Never committed.
#
# usage: make_heap.sh OUT.pb.gz     env: PH_BENCH_STACKS (default 500000)
set -eu

out=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v go >/dev/null 2>&1 || { echo "$0: go is not installed" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/make_heap.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here/src/manystacks.go" "$work/"
(cd "$work" && GO111MODULE=off GOCACHE="$work/cache" go build -o manystacks manystacks.go)
"$work/manystacks" "${PH_BENCH_STACKS:-500000}" "$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(wc -c < "$out") bytes" >&2
