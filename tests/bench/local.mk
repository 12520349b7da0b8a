# tests/bench/local.mk -- make bench: speed and memory against the peers.
