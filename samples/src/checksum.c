/* checksum.c -- profhub sample for diffs: built twice by samples/regen.sh,
 * once plain ("before") and once with -DCHECKSUM_HEAVY ("after"), where
 * only checksum_block does more work (4 passes instead of 1).  Every
 * other function is identical in both builds. */
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define BLOCK 4096

#ifdef CHECKSUM_HEAVY
#define PASSES 4
#else
#define PASSES 1
#endif

static uint8_t data[BLOCK];

NOINLINE void fill_data(uint32_t seed)
{
	for (size_t i = 0; i < BLOCK; i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (uint8_t)(seed >> 16);
	}
}

NOINLINE uint32_t checksum_block(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	for (int pass = 0; pass < PASSES; pass++) {
		for (size_t i = 0; i < n; i++) {
			crc ^= p[i];
			for (int k = 0; k < 8; k++)
				crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
		}
	}
	return ~crc;
}

NOINLINE uint32_t count_bits(const uint8_t *p, size_t n)
{
	uint32_t bits = 0;

	for (size_t i = 0; i < n; i++)
		bits += (uint32_t)__builtin_popcount(p[i]);
	return bits;
}

NOINLINE void report(uint32_t crc, uint32_t bits)
{
	printf("checksum: %08x %u\n", crc, bits);
}

int main(void)
{
	uint32_t crc = 0, bits = 0;

	for (uint32_t r = 0; r < 8; r++) {
		fill_data(r + 1);
		crc ^= checksum_block(data, BLOCK);
		bits += count_bits(data, BLOCK);
	}
	report(crc, bits);
	return 0;
}
