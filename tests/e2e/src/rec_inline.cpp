// rec_inline.cpp -- profhub record test program: a C++ member function
// template (ns::Box<unsigned long>::run, kept out of line) whose hot loop
// is an inlined static function (mix).  Built with g++ -g -O2 by
// tests/e2e/record_inline.sh: the profile must show the demangled name and
// mix as an inlined frame below it (DWARF inlined subroutine, which gcc 12
// describes with a range list).
#include <cstdio>
#include <cstdlib>

namespace ns {
static inline unsigned long mix(unsigned long x)
{
    for (int i = 0; i < 1000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

template <typename T> struct Box {
    __attribute__((noinline)) T run(T v, long n)
    {
        for (long i = 0; i < n; i++)
            v = mix(v);
        return v;
    }
};
} // namespace ns

int main(int argc, char **argv)
{
    ns::Box<unsigned long> b;

    std::printf("%lu\n", b.run((unsigned long)argc,
                               argc > 1 ? std::atol(argv[1]) : 200000));
    return 0;
}
