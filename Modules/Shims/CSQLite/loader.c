// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libsqlite3.so.0 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sqlite3.h>
#include "library_loading.h"

static struct wh_library library = {{"libsqlite3.so.0", "libsqlite3.so", NULL}, "sqlite: stores", "libsqlite3-0"};

int sqlite3_bind_blob(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1, __typeof__(const void *) a2, __typeof__(int) a3, __typeof__(void (*)(void *)) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_bind_blob))wh_library_function(&library, &slot, "sqlite3_bind_blob"))(a0, a1, a2, a3, a4);
}

int sqlite3_bind_double(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1, __typeof__(double) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_bind_double))wh_library_function(&library, &slot, "sqlite3_bind_double"))(a0, a1, a2);
}

int sqlite3_bind_int64(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1, __typeof__(sqlite3_int64) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_bind_int64))wh_library_function(&library, &slot, "sqlite3_bind_int64"))(a0, a1, a2);
}

int sqlite3_bind_null(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_bind_null))wh_library_function(&library, &slot, "sqlite3_bind_null"))(a0, a1);
}

int sqlite3_bind_text(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1, __typeof__(const char *) a2, __typeof__(int) a3, __typeof__(void (*)(void *)) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_bind_text))wh_library_function(&library, &slot, "sqlite3_bind_text"))(a0, a1, a2, a3, a4);
}

int sqlite3_clear_bindings(__typeof__(sqlite3_stmt *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_clear_bindings))wh_library_function(&library, &slot, "sqlite3_clear_bindings"))(a0);
}

int sqlite3_close_v2(__typeof__(sqlite3 *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_close_v2))wh_library_function(&library, &slot, "sqlite3_close_v2"))(a0);
}

const void * sqlite3_column_blob(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_column_blob))wh_library_function(&library, &slot, "sqlite3_column_blob"))(a0, a1);
}

int sqlite3_column_bytes(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_column_bytes))wh_library_function(&library, &slot, "sqlite3_column_bytes"))(a0, a1);
}

double sqlite3_column_double(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_column_double))wh_library_function(&library, &slot, "sqlite3_column_double"))(a0, a1);
}

sqlite3_int64 sqlite3_column_int64(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_column_int64))wh_library_function(&library, &slot, "sqlite3_column_int64"))(a0, a1);
}

const unsigned char * sqlite3_column_text(__typeof__(sqlite3_stmt *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_column_text))wh_library_function(&library, &slot, "sqlite3_column_text"))(a0, a1);
}

const char * sqlite3_errmsg(__typeof__(sqlite3 *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_errmsg))wh_library_function(&library, &slot, "sqlite3_errmsg"))(a0);
}

int sqlite3_exec(__typeof__(sqlite3 *) a0, __typeof__(const char *) a1, __typeof__(int (*)(void *, int, char **, char **)) a2, __typeof__(void *) a3, __typeof__(char **) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_exec))wh_library_function(&library, &slot, "sqlite3_exec"))(a0, a1, a2, a3, a4);
}

int sqlite3_extended_result_codes(__typeof__(sqlite3 *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_extended_result_codes))wh_library_function(&library, &slot, "sqlite3_extended_result_codes"))(a0, a1);
}

int sqlite3_finalize(__typeof__(sqlite3_stmt *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_finalize))wh_library_function(&library, &slot, "sqlite3_finalize"))(a0);
}

void sqlite3_free(__typeof__(void *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&sqlite3_free))wh_library_function(&library, &slot, "sqlite3_free"))(a0);
}

int sqlite3_open_v2(__typeof__(const char *) a0, __typeof__(sqlite3 **) a1, __typeof__(int) a2, __typeof__(const char *) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_open_v2))wh_library_function(&library, &slot, "sqlite3_open_v2"))(a0, a1, a2, a3);
}

int sqlite3_prepare_v2(__typeof__(sqlite3 *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(sqlite3_stmt **) a3, __typeof__(const char **) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_prepare_v2))wh_library_function(&library, &slot, "sqlite3_prepare_v2"))(a0, a1, a2, a3, a4);
}

int sqlite3_reset(__typeof__(sqlite3_stmt *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_reset))wh_library_function(&library, &slot, "sqlite3_reset"))(a0);
}

int sqlite3_step(__typeof__(sqlite3_stmt *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&sqlite3_step))wh_library_function(&library, &slot, "sqlite3_step"))(a0);
}
