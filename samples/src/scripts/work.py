"""work.py -- the Python program profiled with cProfile for
samples/pyprof2calltree/ (see samples/README.md): recursion, a sieve,
string building and a sort, each in a function of its own."""


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def sieve(limit):
    composite = [False] * (limit + 1)
    count = 0
    for i in range(2, limit + 1):
        if composite[i]:
            continue
        count += 1
        for j in range(i * i, limit + 1, i):
            composite[j] = True
    return count


def make_words(n):
    return ["word%d" % (i * 7919 % 10007) for i in range(n)][::-1]


def sort_words(words):
    return sorted(words)[0]


def main():
    f = fib(18)
    p = sieve(50000)
    w = sort_words(make_words(400))
    print("fib=%d primes=%d first=%s" % (f, p, w))


if __name__ == "__main__":
    main()
