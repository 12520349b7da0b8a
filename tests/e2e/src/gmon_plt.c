/* gmon_plt.c -- profhub sample: a loop of calls into the C library
 * (through the PLT of a dynamic program, the IPLT of a static one), so
 * that gprof's histogram has ticks outside any function of the program's
 * own text.  An optional argument scales the work (default 1).  Built and
 * run by tests/e2e/gmon_live.sh. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *volatile text = "abcdefgh";

__attribute__((noinline)) unsigned long lib_calls(unsigned n)
{
	unsigned long t = 0;

	for (unsigned i = 0; i < n; i++) {
		int c = (int)(i & 127);
		t += (unsigned long)abs(c - 5) + (unsigned long)labs(c - 9);
		t += (unsigned long)toupper(c) + (unsigned long)tolower(c);
		t += strlen(text) + (unsigned long)isalpha(c);
	}
	return t;
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;

	printf("%lu\n", lib_calls(scale * 1000000u));
	return 0;
}
