#include "wh_crc32.h"

#if defined(__x86_64__)
#include <immintrin.h>

// The folding constants for the reflected polynomial 0xEDB88320: x^(4*128+32),
// x^(4*128-32), x^(128+32), x^(128-32) and x^64 mod P, then P and mu for the
// Barrett reduction (Intel, "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ", 2009).
static const uint64_t k1k2[2] = {0x0154442bd4, 0x01c6e41596};
static const uint64_t k3k4[2] = {0x01751997d0, 0x00ccaa009e};
static const uint64_t k5k0[2] = {0x0163cd6124, 0x0000000000};
static const uint64_t poly[2] = {0x01db710641, 0x01f7011641};

__attribute__((target("pclmul,sse4.1"))) static uint32_t fold(uint32_t crc, const unsigned char *buf, size_t len) {
  __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;
  x5 = _mm_loadu_si128((const __m128i *)k1k2);
  x0 = _mm_cvtsi32_si128((int)crc);
  x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
  x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
  x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
  x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
  x1 = _mm_xor_si128(x1, x0);
  buf += 64;
  len -= 64;
  // Four lanes of 128 bits folded forward 512 bits at a time.
  while (len >= 64) {
    x6 = _mm_clmulepi64_si128(x1, x5, 0x00);
    x7 = _mm_clmulepi64_si128(x2, x5, 0x00);
    x8 = _mm_clmulepi64_si128(x3, x5, 0x00);
    x0 = _mm_clmulepi64_si128(x4, x5, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x5, 0x11);
    x2 = _mm_clmulepi64_si128(x2, x5, 0x11);
    x3 = _mm_clmulepi64_si128(x3, x5, 0x11);
    x4 = _mm_clmulepi64_si128(x4, x5, 0x11);
    y5 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
    y6 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    y7 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
    y8 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x6), y5);
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x7), y6);
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x8), y7);
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x0), y8);
    buf += 64;
    len -= 64;
  }
  // The four lanes into one.
  x5 = _mm_loadu_si128((const __m128i *)k3k4);
  x0 = _mm_clmulepi64_si128(x1, x5, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x5, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x0);
  x0 = _mm_clmulepi64_si128(x1, x5, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x5, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x0);
  x0 = _mm_clmulepi64_si128(x1, x5, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x5, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x0);
  // Whole 16-byte blocks left.
  while (len >= 16) {
    x0 = _mm_clmulepi64_si128(x1, x5, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x5, 0x11);
    x2 = _mm_loadu_si128((const __m128i *)buf);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x0);
    buf += 16;
    len -= 16;
  }
  // 128 bits to 64, then Barrett's reduction to 32.
  x2 = _mm_clmulepi64_si128(x1, x5, 0x10);
  x3 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_srli_si128(x1, 8);
  x1 = _mm_xor_si128(x1, x2);
  x5 = _mm_loadl_epi64((const __m128i *)k5k0);
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, x3);
  x1 = _mm_clmulepi64_si128(x1, x5, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  x0 = _mm_loadu_si128((const __m128i *)poly);
  x2 = _mm_and_si128(x1, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
  x2 = _mm_and_si128(x2, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

size_t wh_crc32_fold(uint32_t *register_, const void *data, size_t length) {
  static int supported = -1;
  // A benign race: every thread computes the same answer.
  int known = __atomic_load_n(&supported, __ATOMIC_RELAXED);
  if (known < 0) {
    __builtin_cpu_init();
    known = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    __atomic_store_n(&supported, known, __ATOMIC_RELAXED);
  }
  if (!known || length < 64) return 0;
  size_t taken = length & ~(size_t)15;
  *register_ = fold(*register_, (const unsigned char *)data, taken);
  return taken;
}

#else

size_t wh_crc32_fold(uint32_t *register_, const void *data, size_t length) {
  (void)register_;
  (void)data;
  (void)length;
  return 0;
}

#endif
