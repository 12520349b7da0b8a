<?php
// work.php -- the PHP program profiled under Xdebug 3 for
// samples/xdebug/ (see samples/README.md): recursion, a sieve, string
// building and a sort, each in a function of its own.

function fib($n)
{
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

function sieve($limit)
{
    $composite = array_fill(0, $limit + 1, false);
    $count = 0;
    for ($i = 2; $i <= $limit; $i++) {
        if ($composite[$i])
            continue;
        $count++;
        for ($j = $i * $i; $j <= $limit; $j += $i)
            $composite[$j] = true;
    }
    return $count;
}

function make_words($n)
{
    $words = [];
    for ($i = 0; $i < $n; $i++)
        $words[] = strrev("word" . ($i * 7919 % 10007));
    return $words;
}

function sort_words($words)
{
    sort($words);
    return $words[0];
}

function main()
{
    $f = fib(12);
    $p = sieve(50000);
    $w = sort_words(make_words(400));
    echo "fib=$f primes=$p first=$w\n";
}

main();
