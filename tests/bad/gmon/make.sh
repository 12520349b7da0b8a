#!/bin/sh
# make.sh -- make the malformed gmon.out inputs of this folder from a real
# one (samples/gmon/recursion-pie/gmon.out, written by glibc's -pg runtime)
# by truncating it or patching bytes.  Run from anywhere; rewrites NAME.gmon
# (and NAME.exe, the executable a case is read with, when it is not the
# sample's own).  The expected messages NAME.err were checked by hand.
# Layout used (x86-64, see ../../../../shared/formats/gprof.md): header 20
# bytes; histogram record at 0x14 (tag, low 8, high 8, bins 4 at 0x25, rate
# 4 at 0x29, unit 16), bins from 0x3d; then 21-byte arc records.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
src=$top/samples/gmon/recursion-pie/gmon.out
cd "$here"
size=$(wc -c <"$src")
nbins=$(od -An -tu4 -j $((0x25)) -N4 "$src" | tr -d ' ')
arcs=$((0x3d + 2 * nbins))          # offset of the first arc record

# patch FILE OFFSET HEXBYTES: overwrite bytes in place
patch() {
    echo "$3" | xxd -r -p | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

head -c 10 "$src" >truncated_header.gmon
head -c $((0x3d + 100)) "$src" >truncated_hist.gmon
head -c $((arcs + 21 + 9)) "$src" >truncated_arc.gmon
cp "$src" unknown_tag.gmon;   patch unknown_tag.gmon $((arcs + 21)) 07
cp "$src" bad_version.gmon;   patch bad_version.gmon 4 09000000
cp "$src" zero_rate.gmon;     patch zero_rate.gmon $((0x29)) 00000000
cp "$src" huge_bins.gmon;     patch huge_bins.gmon $((0x25)) ffffffff
cp "$src" inverted_hist.gmon; patch inverted_hist.gmon $((0x15)) ffffffffffff0000
cp "$src" arc_outside.gmon;   patch arc_outside.gmon $((arcs + 9)) 0000ff7f00000000
# a basic-block record claiming 2^32-1 blocks, appended
cp "$src" huge_bb.gmon;       printf '\002\377\377\377\377' >>huge_bb.gmon
# a second histogram overlapping the first: the first record again with
# its range shifted by 0x10
head -c $((arcs)) "$src" | tail -c +21 >hist.tmp
cp "$src" overlap_hist.gmon
patch hist.tmp 1 10; cat hist.tmp >>overlap_hist.gmon; rm -f hist.tmp
# no cookie and no consistent BSD header
head -c 64 /dev/zero | tr '\0' 'x' >not_gmon.gmon
# the right file with the wrong executable: another program, and the
# same program linked without PIE
cp "$src" wrong_exe.gmon;       echo samples/gmon/chain-pie/prog >wrong_exe.exe
cp "$src" wrong_exe_nopie.gmon; echo samples/gmon/recursion-nopie/prog >wrong_exe_nopie.exe
echo "made $(ls *.gmon | wc -l) cases from $src ($size bytes, $nbins bins)"
