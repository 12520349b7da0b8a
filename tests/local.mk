# tests/local.mk -- make check: unit suites, end-to-end scripts, fuzz, bench.
include tests/unit/local.mk
include tests/e2e/local.mk
include tests/fuzz/local.mk
include tests/bench/local.mk
include tests/pkg/local.mk
