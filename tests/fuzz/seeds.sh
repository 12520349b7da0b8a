# seeds.sh -- sourced by tests/fuzz/run.sh and tests/e2e/fuzz_replay.sh:
# the seed inputs of each fuzz target.  Needs $top (the source tree) and
# $build (the build tree, for extra seeds in $build/fuzz-seeds/FORMAT).

fuzz_importers="callgrind cachegrind gmon native pprof drcctprof folded"

# Copy the seeds of format $1 into folder $2, named $3 and their path
# below the format's folder with / as _ (many samples are gmon.out):
# samples and tests/bad cases under 256 KiB (pprof's .pb.gz also unpacked).
seed_format() {
    for d in "$top/samples/$1" "$top/tests/bad/$1" "$build/fuzz-seeds/$1"; do
        [ -d "$d" ] || continue
        find "$d" -type f -size -256k ! -name '*.err' ! -name '*.sh' \
            ! -name '*.py' ! -name '*.exe' |
            while IFS= read -r f; do
                rel=${f#"$d"/}
                cp "$f" "$2/$3$(printf '%s' "$rel" | tr / _)"
            done
    done
    for z in "$2"/*.gz; do
        [ -f "$z" ] && gzip -dc "$z" >"${z%.gz}"
    done
    return 0
}

# One seed per --define formula and --fail-if rule quoted in the tests
# and the man pages (roff's \- unescaped).
seed_formulas() {
    cat "$top"/tests/e2e/*.sh "$top"/cgview/*.1 | sed 's/\\-/-/g' |
        grep -oE -- "--(define|fail-if)[ =]'[^']+'" |
        sed -E "s/^--[a-z-]+[ =]'(.*)'$/\\1/" | sort -u |
        awk -v dir="$1" '{ print > (dir "/rule" NR) }'
}

# Seed folder $2 for fuzz target $1.
seed_target() {
    case $1 in
    formula) seed_formulas "$2" ;;
    roundtrip) for f in $fuzz_importers; do seed_format "$f" "$2" "$f-"; done ;;
    *) seed_format "$1" "$2" "" ;;
    esac
}

# The program gmon's seeds were recorded from (its symbols name them).
fuzz_gmon_exe=samples/gmon/recursion-pie/prog
