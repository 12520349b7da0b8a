// Command gowork is a profhub sample: it burns CPU in a few named
// functions (one of them recursive) and allocates memory, and writes a
// CPU profile and a heap profile with runtime/pprof.
//
//	gowork [-heavy] CPU_PROFILE HEAP_PROFILE
//
// -heavy makes hashKeys do three times the work (the "after" profile of a
// before/after pair); everything else is unchanged.  Run by samples/regen.sh.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
)

var heavy = flag.Bool("heavy", false, "make hashKeys three times heavier")

// fib is the recursive CPU burner.
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

// sieve counts primes below n.
func sieve(n int) int {
	composite := make([]bool, n)
	count := 0
	for i := 2; i < n; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j < n; j += i {
			composite[j] = true
		}
	}
	return count
}

// hashKeys builds string keys (allocating) and hashes them.
func hashKeys(n, rounds int) uint32 {
	var h uint32 = 2166136261
	for r := 0; r < rounds; r++ {
		for i := 0; i < n; i++ {
			key := "key-" + strconv.Itoa(i) + "-" + strconv.Itoa(r)
			for j := 0; j < len(key); j++ {
				h ^= uint32(key[j])
				h *= 16777619
			}
		}
	}
	return h
}

type node struct {
	left, right *node
	payload     []byte
}

// buildTree allocates a binary tree; part of it is kept live for the
// heap profile.
func buildTree(depth int) *node {
	if depth == 0 {
		return &node{payload: make([]byte, 256)}
	}
	return &node{left: buildTree(depth - 1), right: buildTree(depth - 1),
		payload: make([]byte, 64)}
}

// sortWords sorts a slice of generated words.
func sortWords(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = strconv.Itoa((i * 7919) % n)
	}
	sort.Strings(words)
	return words[n/2]
}

var keep []*node

func work() {
	rounds := 6
	if *heavy {
		rounds = 18
	}
	total := 0
	for i := 0; i < 12; i++ {
		total += fib(33)
		total += sieve(3000000)
		total += int(hashKeys(100000, rounds) & 0xff)
		total += len(sortWords(100000))
		t := buildTree(14)
		if i%2 == 0 {
			keep = append(keep, t)
		}
	}
	fmt.Println("gowork:", total, len(keep))
}

func main() {
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: gowork [-heavy] CPU_PROFILE HEAP_PROFILE")
		os.Exit(2)
	}
	runtime.MemProfileRate = 64 * 1024
	cpu, err := os.Create(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	work()
	pprof.StopCPUProfile()
	if err := cpu.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	heap, err := os.Create(flag.Arg(1))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(heap); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := heap.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
