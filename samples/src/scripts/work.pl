# work.pl -- the Perl program profiled with Devel::DProf for
# samples/dprof2calltree/ (see samples/README.md): recursion, a sieve,
# string building and a sort, each in a sub of its own.
use strict;
use warnings;

sub fib {
    my $n = shift;
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

sub sieve {
    my $limit = shift;
    my @composite;
    my $count = 0;
    for my $i (2 .. $limit) {
        next if $composite[$i];
        $count++;
        for (my $j = $i * $i; $j <= $limit; $j += $i) {
            $composite[$j] = 1;
        }
    }
    return $count;
}

sub make_words {
    my $n = shift;
    return map { scalar reverse("word" . ($_ * 7919 % 10007)) } 0 .. $n - 1;
}

sub sort_words {
    my @sorted = sort @_;
    return $sorted[0];
}

sub main {
    my $f = fib(16);
    my $p = sieve(1000000);
    my $w = sort_words(make_words(100000));
    print "fib=$f primes=$p first=$w\n";
}

main();
