#!/usr/bin/env python3
"""gen_c.py N -- print a C file of N functions with loops, switches and
calls, for the compiler under valgrind to chew on (make_big_callgrind.sh,
make_cachegrind.sh).  Deterministic: the same N gives the same file."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
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
for i in range(n):
    print(f"    s += f{i}(a, 10);")
print("    return s & 1;\n}")
