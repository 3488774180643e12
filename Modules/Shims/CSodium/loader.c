// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libsodium.so.23 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sodium.h>
#include "library_loading.h"

static struct wh_library library = {{"libsodium.so.23", "libsodium.so", NULL}, "passwords, device keys and signed links", "libsodium23"};

int crypto_auth(__typeof__(unsigned char *) a0, __typeof__(const unsigned char *) a1, __typeof__(unsigned long long) a2, __typeof__(const unsigned char *) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_auth))wh_library_function(&library, &slot, "crypto_auth"))(a0, a1, a2, a3);
}

int crypto_auth_hmacsha256_final(__typeof__(crypto_auth_hmacsha256_state *) a0, __typeof__(unsigned char *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_auth_hmacsha256_final))wh_library_function(&library, &slot, "crypto_auth_hmacsha256_final"))(a0, a1);
}

int crypto_auth_hmacsha256_init(__typeof__(crypto_auth_hmacsha256_state *) a0, __typeof__(const unsigned char *) a1, __typeof__(size_t) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_auth_hmacsha256_init))wh_library_function(&library, &slot, "crypto_auth_hmacsha256_init"))(a0, a1, a2);
}

int crypto_auth_hmacsha256_update(__typeof__(crypto_auth_hmacsha256_state *) a0, __typeof__(const unsigned char *) a1, __typeof__(unsigned long long) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_auth_hmacsha256_update))wh_library_function(&library, &slot, "crypto_auth_hmacsha256_update"))(a0, a1, a2);
}

int crypto_auth_verify(__typeof__(const unsigned char *) a0, __typeof__(const unsigned char *) a1, __typeof__(unsigned long long) a2, __typeof__(const unsigned char *) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_auth_verify))wh_library_function(&library, &slot, "crypto_auth_verify"))(a0, a1, a2, a3);
}

int crypto_generichash(__typeof__(unsigned char *) a0, __typeof__(size_t) a1, __typeof__(const unsigned char *) a2, __typeof__(unsigned long long) a3, __typeof__(const unsigned char *) a4, __typeof__(size_t) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_generichash))wh_library_function(&library, &slot, "crypto_generichash"))(a0, a1, a2, a3, a4, a5);
}

int crypto_pwhash_alg_argon2id13(void) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_alg_argon2id13))wh_library_function(&library, &slot, "crypto_pwhash_alg_argon2id13"))();
}

size_t crypto_pwhash_memlimit_interactive(void) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_memlimit_interactive))wh_library_function(&library, &slot, "crypto_pwhash_memlimit_interactive"))();
}

size_t crypto_pwhash_opslimit_interactive(void) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_opslimit_interactive))wh_library_function(&library, &slot, "crypto_pwhash_opslimit_interactive"))();
}

int crypto_pwhash_str_alg(__typeof__(char *) a0, __typeof__(const char *const) a1, __typeof__(unsigned long long) a2, __typeof__(unsigned long long) a3, __typeof__(size_t) a4, __typeof__(int) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_str_alg))wh_library_function(&library, &slot, "crypto_pwhash_str_alg"))(a0, a1, a2, a3, a4, a5);
}

int crypto_pwhash_str_verify(__typeof__(const char *) a0, __typeof__(const char *const) a1, __typeof__(unsigned long long) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_str_verify))wh_library_function(&library, &slot, "crypto_pwhash_str_verify"))(a0, a1, a2);
}

size_t crypto_pwhash_strbytes(void) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_pwhash_strbytes))wh_library_function(&library, &slot, "crypto_pwhash_strbytes"))();
}

int crypto_secretbox_easy(__typeof__(unsigned char *) a0, __typeof__(const unsigned char *) a1, __typeof__(unsigned long long) a2, __typeof__(const unsigned char *) a3, __typeof__(const unsigned char *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_secretbox_easy))wh_library_function(&library, &slot, "crypto_secretbox_easy"))(a0, a1, a2, a3, a4);
}

int crypto_secretbox_open_easy(__typeof__(unsigned char *) a0, __typeof__(const unsigned char *) a1, __typeof__(unsigned long long) a2, __typeof__(const unsigned char *) a3, __typeof__(const unsigned char *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&crypto_secretbox_open_easy))wh_library_function(&library, &slot, "crypto_secretbox_open_easy"))(a0, a1, a2, a3, a4);
}

void randombytes_buf(__typeof__(void *const) a0, __typeof__(const size_t) a1) {
  static void *_Atomic slot;
  ((__typeof__(&randombytes_buf))wh_library_function(&library, &slot, "randombytes_buf"))(a0, a1);
}

int sodium_init(void) {
  static void *_Atomic slot;
  return ((__typeof__(&sodium_init))wh_library_function(&library, &slot, "sodium_init"))();
}

int sodium_memcmp(__typeof__(const void *const) a0, __typeof__(const void *const) a1, __typeof__(size_t) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&sodium_memcmp))wh_library_function(&library, &slot, "sodium_memcmp"))(a0, a1, a2);
}
