#!/usr/bin/env python3
"""gen_c.py N [ROUNDS] -- print a C file of N functions with loops,
switches and calls, for the compiler under valgrind to chew on
(make_big_callgrind.sh, make_generated.sh) or to run under gprof
(make_gmon.sh: main calls every function ROUNDS times, default once, so
that the profiling timer has something to see).  Deterministic: the same
arguments give the same file."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
for i in range(n):
    prev = max(i - 1, 0)
    print(f"""
static int f{i}(int *a, int n)
{{
    int s = 0;
    for (int j = 0; j < n; j++) {{
        if (a[j] % {i % 7 + 2} == 0)
            s += a[j] * {i};
        else
            s ^= a[j] << {i % 5};
        switch (a[j] & 3) {{
        case 0: s += {i}; break;
        case 1: s -= j; break;
        default: s *= 3;
        }}
    }}
    return s + (n > {i} ? f{prev}(a, n - 1) : 0);
}}""")
print("int main(void)\n{\n    int a[100] = {0}, s = 0;")
if rounds > 1:
    print(f"    for (int r = 0; r < {rounds}; r++) {{\n        a[r % 100] = r;")
for i in range(n):
    print(f"    s += f{i}(a, 10);")
if rounds > 1:
    print("    }")
print("    return s & 1;\n}")
