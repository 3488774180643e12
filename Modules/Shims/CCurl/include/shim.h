// curl.h's type-checking macros would turn these calls into ones Swift's
// importer cannot compile, and the loader defines the real names.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stddef.h>

// libcurl's global setup (its flags are a macro Swift cannot import).
static inline CURLcode wh_curl_start(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

// Swift cannot call C variadic functions: one setter per kind of value.

static inline CURLcode wh_curl_set_long(CURL *curl, CURLoption option, long value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode wh_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode wh_curl_set_size(CURL *curl, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(curl, option, value);
}

typedef size_t (*wh_curl_receiver)(char *data, size_t size, size_t count, void *context);

// Where the body's bytes go (`body`) and where each header line goes (`header`).
static inline CURLcode wh_curl_set_receivers(CURL *curl, wh_curl_receiver body, wh_curl_receiver header, void *context) {
  CURLcode code = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, body);
  if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_WRITEDATA, context);
  if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header);
  if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_HEADERDATA, context);
  return code;
}

static inline long wh_curl_status(CURL *curl) {
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  return status;
}
