// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libcurl.so.4 at its first call and calls the real one.
#define CURL_DISABLE_TYPECHECK 1
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <curl/curl.h>
#include "library_loading.h"

static struct wh_library library = {{"libcurl.so.4", "libcurl.so", NULL}, "HTTP requests (sinks, remote: stores, Overpass)", "libcurl4"};

void curl_easy_cleanup(__typeof__(CURL *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&curl_easy_cleanup))wh_library_function(&library, &slot, "curl_easy_cleanup"))(a0);
}

CURLcode (curl_easy_getinfo)(CURL *curl, CURLINFO info, ...) {
  static void *_Atomic slot;
  CURLcode (*get)(CURL *, CURLINFO, ...) = wh_library_function(&library, &slot, "curl_easy_getinfo");
  va_list ap;
  va_start(ap, info);
  CURLcode code = get(curl, info, va_arg(ap, void *));
  va_end(ap);
  return code;
}

CURL * curl_easy_init(void) {
  static void *_Atomic slot;
  return ((__typeof__(&curl_easy_init))wh_library_function(&library, &slot, "curl_easy_init"))();
}

CURLcode curl_easy_perform(__typeof__(CURL *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&curl_easy_perform))wh_library_function(&library, &slot, "curl_easy_perform"))(a0);
}

CURLcode (curl_easy_setopt)(CURL *curl, CURLoption option, ...) {
  static void *_Atomic slot;
  CURLcode (*set)(CURL *, CURLoption, ...) = wh_library_function(&library, &slot, "curl_easy_setopt");
  va_list ap;
  va_start(ap, option);
  CURLcode code;
  if (option < CURLOPTTYPE_OBJECTPOINT) code = set(curl, option, va_arg(ap, long));
  else if (option < CURLOPTTYPE_FUNCTIONPOINT) code = set(curl, option, va_arg(ap, void *));
  else if (option < CURLOPTTYPE_OFF_T) code = set(curl, option, va_arg(ap, void (*)(void)));
  else if (option < CURLOPTTYPE_BLOB) code = set(curl, option, va_arg(ap, curl_off_t));
  else code = set(curl, option, va_arg(ap, void *));
  va_end(ap);
  return code;
}

const char * curl_easy_strerror(__typeof__(CURLcode) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&curl_easy_strerror))wh_library_function(&library, &slot, "curl_easy_strerror"))(a0);
}

CURLcode curl_global_init(__typeof__(long) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&curl_global_init))wh_library_function(&library, &slot, "curl_global_init"))(a0);
}

struct curl_slist * curl_slist_append(__typeof__(struct curl_slist *) a0, __typeof__(const char *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&curl_slist_append))wh_library_function(&library, &slot, "curl_slist_append"))(a0, a1);
}

void curl_slist_free_all(__typeof__(struct curl_slist *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&curl_slist_free_all))wh_library_function(&library, &slot, "curl_slist_free_all"))(a0);
}
