# tests/fuzz/local.mk -- libFuzzer targets (--enable-fuzzing).
if ENABLE_FUZZING
endif
