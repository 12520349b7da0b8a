# record_lib.sh -- sourced by tests/e2e/record_*.sh after lib.sh: skips
# when profhub was built without collectors, compiles test programs with
# gcc -g into $tmp, and reads numbers out of "profhub summary --format csv".
#   build NAME SRC [FLAGS...]   gcc -g -O1 SRC -o $tmp/NAME
#   csv_field FILE FUNC COLUMN  COLUMN (a header name) of FUNC's row in the
#                               summary CSV of FILE, or empty
#   total FILE EVENT            total of EVENT in FILE

need_program gcc
"$PROFHUB" collectors >/dev/null 2>&1
[ $? -eq 2 ] && skip "profhub was built without collectors"

build() {
    name=$1
    src=$2
    shift 2
    gcc -g -O1 "$@" -o "$tmp/$name" "$src" || {
        echo "ERROR: cannot build $src"
        exit 99
    }
}

csv_field() {
    "$PROFHUB" summary --format csv -n 0 "$1" 2>/dev/null | awk -F, -v fn="$2" -v col="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
        $1 == fn && c { print $c; exit }'
}

total() {
    "$PROFHUB" summary --format csv -n 0 "$1" 2>/dev/null | awk -F, -v col="incl_$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
        c && $c > t { t = $c } END { print t + 0 }'
}
