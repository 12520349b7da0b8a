/* chain.c -- profhub sample: a deep call chain (main -> run_round ->
 * level_a -> ... -> level_e) with one hot loop in the leaf (hot_loop)
 * and a checksum_block function.  Deterministic; an optional argument
 * scales the work (default 1).  Built by samples/regen.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BLOCK 2048

static uint32_t block[BLOCK];

NOINLINE uint32_t checksum_block(const uint32_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return (b << 16) | a;
}

NOINLINE uint64_t hot_loop(unsigned iters, uint64_t seed)
{
	uint64_t x = seed;

	for (unsigned i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		block[i % BLOCK] += (uint32_t)x;
	}
	return x;
}

NOINLINE uint64_t level_e(unsigned iters, uint64_t seed)
{
	uint64_t x = hot_loop(iters, seed);

	return x + checksum_block(block, BLOCK);
}

NOINLINE uint64_t level_d(unsigned iters, uint64_t seed)
{
	return level_e(iters, seed + 1) + 1;
}

NOINLINE uint64_t level_c(unsigned iters, uint64_t seed)
{
	return level_d(iters, seed + 2) + 2;
}

NOINLINE uint64_t level_b(unsigned iters, uint64_t seed)
{
	return level_c(iters, seed + 3) + 3;
}

NOINLINE uint64_t level_a(unsigned iters, uint64_t seed)
{
	return level_b(iters, seed + 4) + 4;
}

NOINLINE uint64_t run_round(int round, unsigned scale)
{
	return level_a(100000u * scale, (uint64_t)round * 7919u + 1u);
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1u;
	uint64_t total = 0;

	for (size_t i = 0; i < BLOCK; i++)
		block[i] = (uint32_t)(i * 2654435761u);
	for (int round = 0; round < 3; round++)
		total += run_round(round, scale ? scale : 1u);
	printf("chain: %llu\n", (unsigned long long)total);
	return 0;
}
