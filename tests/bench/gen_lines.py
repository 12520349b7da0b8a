#!/usr/bin/env python3
"""gen_lines.py -- print C for a program whose executed source lines run
into the millions, so that cachegrind, which writes one cost line per
executed source line, writes a big file (make_big_cachegrind.sh).  gcc -O0
compiles straight-line code quickly; loops and calls would not add lines.

  gen_lines.py part K F L   functions hK_0 .. hK_<F-1>, L statements each
                            (loads, stores, branches, shifts), one a line
  gen_lines.py main N F R   the table they share and main, which calls the
                            functions of parts 0 .. N-1 R times each

Deterministic: the same arguments give the same file."""
import sys

TAB = 4096


def part(k, nfunc, nline):
    out = ["extern int tab[%d];" % TAB]
    for f in range(nfunc):
        out.append("int h%d_%d(int s)\n{" % (k, f))
        for j in range(nline):
            m = (k * 7919 + f * 31 + j * 17) % TAB
            kind = j % 4
            if kind == 0:
                out.append("    s += tab[%d] * %d;" % (m, j % 13 + 1))
            elif kind == 1:
                out.append("    tab[%d] ^= s >> %d;" % (m * 7 % TAB, j % 9))
            elif kind == 2:
                out.append("    if (s & %d) s -= %d;" % (1 << (j % 8), j))
            else:
                out.append("    s = (s << 1) ^ tab[%d];" % (m * 13 % TAB))
        out.append("    return s;\n}")
    print("\n".join(out))


def main(nparts, nfunc, rounds):
    print("int tab[%d];" % TAB)
    names = ["h%d_%d" % (k, f) for k in range(nparts) for f in range(nfunc)]
    for n in names:
        print("int %s(int);" % n)
    print("int main(void)\n{\n    int s = 1;")
    print("    for (int r = 0; r < %d; r++) {" % rounds)
    for n in names:
        print("        s = %s(s);" % n)
    print("    }\n    return s & 1;\n}")


if __name__ == "__main__":
    what, a, b, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4])
    (part if what == "part" else main)(a, b, c)
