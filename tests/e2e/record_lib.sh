# record_lib.sh -- sourced by tests/e2e/record_*.sh after lib.sh: skips
# when profhub was built without collectors, compiles test programs with
# gcc -g into $tmp, and reads numbers out of "profhub summary --format csv".
#   build NAME SRC [FLAGS...]   gcc -g -O1 SRC -o $tmp/NAME
#   csv_field FILE FUNC COLUMN  COLUMN (a header name) of FUNC's row in the
#                               summary CSV of FILE, or empty
#   total FILE EVENT            total of EVENT in FILE

need_program gcc python3
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

# The summary CSV quotes names with commas ("f(unsigned long, long)"), so
# it is read with a real CSV parser, never split on commas.
csv_field() {
    "$PROFHUB" summary --format csv -n 0 "$1" 2>/dev/null | python3 -c '
import csv, sys
for row in csv.DictReader(sys.stdin):
    if row["name"] == sys.argv[1] and sys.argv[2] in row:
        print(row[sys.argv[2]])
        break' "$2" "$3"
}

total() {
    "$PROFHUB" summary --format csv -n 0 "$1" 2>/dev/null | python3 -c '
import csv, sys
col = "incl_" + sys.argv[1]
print(max([int(float(r[col] or 0)) for r in csv.DictReader(sys.stdin)
           if col in r] or [0]))' "$2"
}
