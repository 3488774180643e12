// Bounds proportional to the input for every harness: the heap a parse
// holds at its peak and the CPU it takes. libFuzzer's own limits are
// absolute (-rss_limit_mb, -timeout) and cannot tell a 10-byte input that
// takes a second from a 16 KiB one; these can.
#include "FuzzBounds.h"

#include <sanitizer/allocator_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// One-time initialisations inside Foundation (locales, formatters, the
// first XML parser) are paid by whichever input comes first; the base
// covers them. Per byte: a parser may build a tree several times its
// input, not hundreds of times.
#define FUZZ_BOUNDS_BASE_BYTES (32.0 * 1024 * 1024)
#define FUZZ_BOUNDS_BYTES_PER_BYTE 512.0
// Under AddressSanitizer and coverage instrumentation, per byte of input.
#define FUZZ_BOUNDS_BASE_MS 250.0
#define FUZZ_BOUNDS_US_PER_BYTE 100.0

static long long current_bytes;
static long long peak_bytes;
static long long start_bytes;
static int installed;
static struct timespec started;
// The largest seen, for the closing line scripts/fuzz.sh prints.
// A copy: a Swift string passed as `const char *` lives only for the call.
static char name[64];
static double most_bytes, most_ms;
static size_t most_bytes_length, most_ms_length;

static void report(void) {
  fprintf(stderr, "FuzzBounds: %s most heap %.0f bytes (input of %zu bytes), most CPU %.1f ms (input of %zu bytes)\n", name, most_bytes,
    most_bytes_length, most_ms, most_ms_length);
}

static void on_malloc(const volatile void *ptr, size_t size) {
  (void)ptr;
  long long now = __atomic_add_fetch(&current_bytes, (long long)size, __ATOMIC_RELAXED);
  long long peak = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
  while (now > peak && !__atomic_compare_exchange_n(&peak_bytes, &peak, now, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

static void on_free(const volatile void *ptr) {
  // The hook runs before the chunk is released, so its size is still known.
  size_t size = __sanitizer_get_allocated_size((const void *)ptr);
  __atomic_sub_fetch(&current_bytes, (long long)size, __ATOMIC_RELAXED);
}

void fuzz_bounds_begin(void) {
  if (!installed) {
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    atexit(report);
    installed = 1;
  }
  long long now = __atomic_load_n(&current_bytes, __ATOMIC_RELAXED);
  start_bytes = now;
  __atomic_store_n(&peak_bytes, now, __ATOMIC_RELAXED);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &started);
}

void fuzz_bounds_end(const char *harness, size_t length) {
  struct timespec ended;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ended);
  double ms = (ended.tv_sec - started.tv_sec) * 1e3 + (ended.tv_nsec - started.tv_nsec) / 1e6;
  double used = (double)(__atomic_load_n(&peak_bytes, __ATOMIC_RELAXED) - start_bytes);
  double memory_bound = FUZZ_BOUNDS_BASE_BYTES + FUZZ_BOUNDS_BYTES_PER_BYTE * (double)length;
  double time_bound = FUZZ_BOUNDS_BASE_MS + FUZZ_BOUNDS_US_PER_BYTE * (double)length / 1000.0;
  if (!name[0]) snprintf(name, sizeof name, "%s", harness);
  if (used > most_bytes) {
    most_bytes = used;
    most_bytes_length = length;
  }
  if (ms > most_ms) {
    most_ms = ms;
    most_ms_length = length;
  }
  if (used > memory_bound) {
    fprintf(stderr, "FuzzBounds: %s held %.0f bytes of heap at its peak for an input of %zu bytes (bound %.0f)\n", harness, used, length,
      memory_bound);
    abort();
  }
  if (ms > time_bound) {
    fprintf(stderr, "FuzzBounds: %s took %.1f ms of CPU for an input of %zu bytes (bound %.1f ms)\n", harness, ms, length, time_bound);
    abort();
  }
}
