// manystacks.go -- a Go program whose heap profile has very many distinct
// stacks, for `make bench` (make_heap.sh): each allocation walks a path of
// depth 14 through 4 functions chosen by the digits of its index in base 4,
// so N allocations make up to N distinct stacks of 28 frames.  Every
// allocation is sampled (MemProfileRate = 1).
//
// usage: manystacks N OUT.pb.gz
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
)

const depth = 14

var keep [][]byte

func step(i, d int) {
	if d == depth {
		keep = append(keep, make([]byte, 16+i%64))
		return
	}
	// The digit nearest the leaf varies fastest, so stacks differ near the
	// allocation, where the runtime's 32-frame limit keeps them.
	switch (i >> (2 * (depth - 1 - d))) & 3 {
	case 0:
		a(i, d+1)
	case 1:
		b(i, d+1)
	case 2:
		c(i, d+1)
	default:
		e(i, d+1)
	}
}

//go:noinline
func a(i, d int) { step(i, d) }

//go:noinline
func b(i, d int) { step(i, d) }

//go:noinline
func c(i, d int) { step(i, d) }

//go:noinline
func e(i, d int) { step(i, d) }

func main() {
	runtime.MemProfileRate = 1
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		panic(err)
	}
	for i := 0; i < n; i++ {
		step(i, 0)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		panic(err)
	}
	f.Close()
}
