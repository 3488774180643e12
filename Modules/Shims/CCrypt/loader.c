// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libcrypt.so.1 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <crypt.h>
#include "library_loading.h"

static struct wh_library library = {{"libcrypt.so.1", "libcrypt.so", NULL}, "nats-server password hashes", "libcrypt1"};

char * crypt(__typeof__(const char *) a0, __typeof__(const char *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&crypt))wh_library_function(&library, &slot, "crypt"))(a0, a1);
}

char * crypt_gensalt(__typeof__(const char *) a0, __typeof__(unsigned long) a1, __typeof__(const char *) a2, __typeof__(int) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&crypt_gensalt))wh_library_function(&library, &slot, "crypt_gensalt"))(a0, a1, a2, a3);
}

char * crypt_gensalt_rn(__typeof__(const char *) a0, __typeof__(unsigned long) a1, __typeof__(const char *) a2, __typeof__(int) a3, __typeof__(char *) a4, __typeof__(int) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&crypt_gensalt_rn))wh_library_function(&library, &slot, "crypt_gensalt_rn"))(a0, a1, a2, a3, a4, a5);
}

char * crypt_r(__typeof__(const char *) a0, __typeof__(const char *) a1, __typeof__(struct crypt_data *restrict) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&crypt_r))wh_library_function(&library, &slot, "crypt_r"))(a0, a1, a2);
}
