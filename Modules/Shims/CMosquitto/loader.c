// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libmosquitto.so.1 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <mosquitto.h>
#include "library_loading.h"

static struct wh_library library = {{"libmosquitto.so.1", "libmosquitto.so", NULL}, "MQTT", "libmosquitto1"};

int mosquitto_connect(__typeof__(struct mosquitto *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(int) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_connect))wh_library_function(&library, &slot, "mosquitto_connect"))(a0, a1, a2, a3);
}

void mosquitto_connect_callback_set(__typeof__(struct mosquitto *) a0, __typeof__(void (*)(struct mosquitto *, void *, int)) a1) {
  static void *_Atomic slot;
  ((__typeof__(&mosquitto_connect_callback_set))wh_library_function(&library, &slot, "mosquitto_connect_callback_set"))(a0, a1);
}

void mosquitto_destroy(__typeof__(struct mosquitto *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&mosquitto_destroy))wh_library_function(&library, &slot, "mosquitto_destroy"))(a0);
}

int mosquitto_disconnect(__typeof__(struct mosquitto *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_disconnect))wh_library_function(&library, &slot, "mosquitto_disconnect"))(a0);
}

int mosquitto_lib_init(void) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_lib_init))wh_library_function(&library, &slot, "mosquitto_lib_init"))();
}

int mosquitto_loop_start(__typeof__(struct mosquitto *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_loop_start))wh_library_function(&library, &slot, "mosquitto_loop_start"))(a0);
}

int mosquitto_loop_stop(__typeof__(struct mosquitto *) a0, __typeof__(_Bool) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_loop_stop))wh_library_function(&library, &slot, "mosquitto_loop_stop"))(a0, a1);
}

void mosquitto_message_callback_set(__typeof__(struct mosquitto *) a0, __typeof__(void (*)(struct mosquitto *, void *, const struct mosquitto_message *)) a1) {
  static void *_Atomic slot;
  ((__typeof__(&mosquitto_message_callback_set))wh_library_function(&library, &slot, "mosquitto_message_callback_set"))(a0, a1);
}

struct mosquitto * mosquitto_new(__typeof__(const char *) a0, __typeof__(_Bool) a1, __typeof__(void *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_new))wh_library_function(&library, &slot, "mosquitto_new"))(a0, a1, a2);
}

int mosquitto_publish(__typeof__(struct mosquitto *) a0, __typeof__(int *) a1, __typeof__(const char *) a2, __typeof__(int) a3, __typeof__(const void *) a4, __typeof__(int) a5, __typeof__(_Bool) a6) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_publish))wh_library_function(&library, &slot, "mosquitto_publish"))(a0, a1, a2, a3, a4, a5, a6);
}

int mosquitto_reconnect_delay_set(__typeof__(struct mosquitto *) a0, __typeof__(unsigned int) a1, __typeof__(unsigned int) a2, __typeof__(_Bool) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_reconnect_delay_set))wh_library_function(&library, &slot, "mosquitto_reconnect_delay_set"))(a0, a1, a2, a3);
}

const char * mosquitto_strerror(__typeof__(int) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_strerror))wh_library_function(&library, &slot, "mosquitto_strerror"))(a0);
}

int mosquitto_subscribe(__typeof__(struct mosquitto *) a0, __typeof__(int *) a1, __typeof__(const char *) a2, __typeof__(int) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_subscribe))wh_library_function(&library, &slot, "mosquitto_subscribe"))(a0, a1, a2, a3);
}

void mosquitto_subscribe_callback_set(__typeof__(struct mosquitto *) a0, __typeof__(void (*)(struct mosquitto *, void *, int, int, const int *)) a1) {
  static void *_Atomic slot;
  ((__typeof__(&mosquitto_subscribe_callback_set))wh_library_function(&library, &slot, "mosquitto_subscribe_callback_set"))(a0, a1);
}

int mosquitto_tls_set(__typeof__(struct mosquitto *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(const char *) a3, __typeof__(const char *) a4, __typeof__(int (*)(char *, int, int, void *)) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_tls_set))wh_library_function(&library, &slot, "mosquitto_tls_set"))(a0, a1, a2, a3, a4, a5);
}

int mosquitto_username_pw_set(__typeof__(struct mosquitto *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&mosquitto_username_pw_set))wh_library_function(&library, &slot, "mosquitto_username_pw_set"))(a0, a1, a2);
}
