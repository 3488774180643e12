#ifndef FUZZ_BOUNDS_H
#define FUZZ_BOUNDS_H

#include <stddef.h>

/// Starts measuring one input: the heap's high-water mark from here and the
/// thread's CPU time. Installs the allocator hooks on first use.
void fuzz_bounds_begin(void);

/// Ends the measurement of an input of `length` bytes. A parse that used
/// more heap at its peak than `FUZZ_BOUNDS_BASE_BYTES + FUZZ_BOUNDS_BYTES_PER_BYTE
/// * length`, or more CPU than `FUZZ_BOUNDS_BASE_MS + FUZZ_BOUNDS_US_PER_BYTE *
/// length`, prints what it used against the bound and aborts, so libFuzzer
/// keeps the input.
void fuzz_bounds_end(const char *harness, size_t length);

#endif
