/* rec_short.c -- programs whose profile is incomplete or empty, for
 * tests/e2e/record_missed.sh.  Modes (argv[1]):
 *   sigkill   burns CPU in doomed(), then SIGKILLs itself
 *   children  forks 4 children that each exit at once, then burns CPU in
 *             parent_work() and waits for them
 *   quick     exits at once (static builds of it are refused)
 * Prints "ran MODE" first, so a test can see whether it ran. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static double burn(long n)
{
    volatile double x = 0;

    for (long i = 0; i < n; i++)
        x += (double)i * 0.25;
    return x;
}

__attribute__((noinline)) static void doomed(void)
{
    burn(300000000);
}

__attribute__((noinline)) static void parent_work(void)
{
    burn(200000000);
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "quick";

    printf("ran %s\n", m);
    fflush(stdout);
    if (strcmp(m, "sigkill") == 0) {
        doomed();
        kill(getpid(), SIGKILL);
    } else if (strcmp(m, "children") == 0) {
        for (int i = 0; i < 4; i++)
            if (fork() == 0)
                _exit(0);
        parent_work();
        while (wait(NULL) > 0)
            ;
    }
    return 0;
}
