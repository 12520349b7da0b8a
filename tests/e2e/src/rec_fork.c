/* rec_fork.c -- profhub record test program: the parent and a forked
 * child each burn CPU in their own function (parent_work, child_work);
 * the child's exit status is checked and printed.  Used by
 * tests/e2e/record_fork.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

static NOINLINE uint64_t spin(uint64_t n, uint64_t seed)
{
    uint64_t x = seed;

    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

NOINLINE uint64_t parent_work(uint64_t n)
{
    return spin(n, 1);
}

NOINLINE uint64_t child_work(uint64_t n)
{
    return spin(n, 2);
}

int main(int argc, char **argv)
{
    uint64_t n = (argc > 1 ? strtoull(argv[1], NULL, 10) : 1) * 100000000u;
    int status;
    pid_t pid;

    fflush(stdout);
    pid = fork();
    if (pid < 0)
        return 3;
    if (pid == 0) {
        sink = child_work(n);
        printf("child done\n");
        exit(7);
    }
    sink = parent_work(n);
    if (waitpid(pid, &status, 0) < 0)
        return 4;
    printf("parent done, child exit %d\n", WEXITSTATUS(status));
    return 0;
}
