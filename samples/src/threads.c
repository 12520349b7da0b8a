/* threads.c -- profhub sample: three pthreads workers doing different
 * work (arithmetic, sorting, string hashing) while main waits.  A barrier
 * keeps all four threads alive together, so valgrind numbers them 1-4 in
 * creation order on every run.  Built by samples/regen.sh. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static uint64_t results[3];
static pthread_barrier_t all_started;

NOINLINE uint64_t sum_squares(unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += (uint64_t)i * i % 1000003u;
	return s;
}

NOINLINE void insertion_sort(uint32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t v = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

NOINLINE uint32_t hash_string(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static void *worker_sum(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&all_started);
	results[0] = sum_squares(300000);
	return NULL;
}

static void *worker_sort(void *arg)
{
	uint32_t a[600];

	(void)arg;
	pthread_barrier_wait(&all_started);
	for (size_t i = 0; i < 600; i++)
		a[i] = (uint32_t)(i * 2654435761u) >> 7;
	insertion_sort(a, 600);
	results[1] = a[0] + a[599];
	return NULL;
}

static void *worker_hash(void *arg)
{
	char buf[64];
	uint32_t h = 0;

	(void)arg;
	pthread_barrier_wait(&all_started);
	for (unsigned i = 0; i < 20000; i++) {
		snprintf(buf, sizeof buf, "key-%u-profhub", i);
		h ^= hash_string(buf);
	}
	results[2] = h;
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	void *(*work[3])(void *) = { worker_sum, worker_sort, worker_hash };

	pthread_barrier_init(&all_started, NULL, 4);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, work[i], NULL) != 0)
			return 1;
	pthread_barrier_wait(&all_started);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&all_started);
	printf("threads: %llu %llu %llu\n", (unsigned long long)results[0],
	       (unsigned long long)results[1], (unsigned long long)results[2]);
	return 0;
}
