/* recursion.c -- profhub sample: direct recursion (fib, walk over a
 * binary tree) and mutual recursion (is_even / is_odd), with one small
 * leaf (mix) called from all of them.  Deterministic; an optional
 * argument scales the work (default 1).  Built by samples/regen.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static uint32_t sink;

struct node {
	struct node *left, *right;
	uint32_t value;
};

NOINLINE uint32_t mix(uint32_t x)
{
	for (int i = 0; i < 12; i++) {
		x ^= x >> 16;
		x *= 0x7feb352du;
		x ^= x >> 15;
	}
	return x;
}

NOINLINE uint32_t fib(unsigned n)
{
	if (n < 2)
		return mix(n);
	return fib(n - 1) + fib(n - 2);
}

NOINLINE int is_odd(unsigned n);

NOINLINE int is_even(unsigned n)
{
	if (n == 0)
		return 1;
	int r = is_odd(n - 1);

	sink += mix(n);
	return r;
}

NOINLINE int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	int r = is_even(n - 1);

	sink += mix(n);
	return r;
}

static struct node *build(unsigned depth, uint32_t seed)
{
	struct node *t = calloc(1, sizeof *t);

	if (!t)
		exit(1);
	t->value = seed;
	if (depth > 0) {
		t->left = build(depth - 1, seed * 2u + 1u);
		t->right = build(depth - 1, seed * 2u + 2u);
	}
	return t;
}

NOINLINE uint64_t walk(const struct node *t)
{
	if (!t)
		return 0;
	return mix(t->value) + walk(t->left) + walk(t->right);
}

static void destroy(struct node *t)
{
	if (!t)
		return;
	destroy(t->left);
	destroy(t->right);
	free(t);
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1u;
	uint64_t sum = 0;
	int evens = 0;
	struct node *tree = build(10, 1);

	for (unsigned r = 0; r < scale; r++) {
		sum += fib(18);
		for (unsigned n = 0; n < 300; n++)
			evens += is_even(n);
		sum += walk(tree);
	}
	destroy(tree);
	printf("recursion: %llu %d %u\n", (unsigned long long)sum, evens, sink);
	return 0;
}
