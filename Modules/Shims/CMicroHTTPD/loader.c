// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libmicrohttpd.so.12 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <microhttpd.h>
#include "library_loading.h"

static struct wh_library library = {{"libmicrohttpd.so.12", "libmicrohttpd.so", NULL}, "whilehered's HTTP server", "libmicrohttpd12"};

enum MHD_Result MHD_add_response_header(__typeof__(struct MHD_Response *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&MHD_add_response_header))wh_library_function(&library, &slot, "MHD_add_response_header"))(a0, a1, a2);
}

struct MHD_Response * MHD_create_response_from_buffer(__typeof__(size_t) a0, __typeof__(void *) a1, __typeof__(enum MHD_ResponseMemoryMode) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&MHD_create_response_from_buffer))wh_library_function(&library, &slot, "MHD_create_response_from_buffer"))(a0, a1, a2);
}

void MHD_destroy_response(__typeof__(struct MHD_Response *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&MHD_destroy_response))wh_library_function(&library, &slot, "MHD_destroy_response"))(a0);
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...) {
  static void *_Atomic slot;
  const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
      wh_library_function(&library, &slot, "MHD_get_connection_info");
  return get(connection, info_type);
}

int MHD_get_connection_values(__typeof__(struct MHD_Connection *) a0, __typeof__(enum MHD_ValueKind) a1, __typeof__(MHD_KeyValueIterator) a2, __typeof__(void *) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&MHD_get_connection_values))wh_library_function(&library, &slot, "MHD_get_connection_values"))(a0, a1, a2, a3);
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
  static void *_Atomic slot;
  const union MHD_DaemonInfo *(*get)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =
      wh_library_function(&library, &slot, "MHD_get_daemon_info");
  return get(daemon, info_type);
}

const char * MHD_lookup_connection_value(__typeof__(struct MHD_Connection *) a0, __typeof__(enum MHD_ValueKind) a1, __typeof__(const char *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&MHD_lookup_connection_value))wh_library_function(&library, &slot, "MHD_lookup_connection_value"))(a0, a1, a2);
}

enum MHD_Result MHD_queue_response(__typeof__(struct MHD_Connection *) a0, __typeof__(unsigned int) a1, __typeof__(struct MHD_Response *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&MHD_queue_response))wh_library_function(&library, &slot, "MHD_queue_response"))(a0, a1, a2);
}

void MHD_resume_connection(__typeof__(struct MHD_Connection *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&MHD_resume_connection))wh_library_function(&library, &slot, "MHD_resume_connection"))(a0);
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
  static void *_Atomic slot;
  va_list ap;
  va_start(ap, dh_cls);
  struct MHD_Daemon *daemon = ((__typeof__(&MHD_start_daemon_va))wh_library_function(&library, &slot, "MHD_start_daemon_va"))(
      flags, port, apc, apc_cls, dh, dh_cls, ap);
  va_end(ap);
  return daemon;
}

void MHD_stop_daemon(__typeof__(struct MHD_Daemon *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&MHD_stop_daemon))wh_library_function(&library, &slot, "MHD_stop_daemon"))(a0);
}

void MHD_suspend_connection(__typeof__(struct MHD_Connection *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&MHD_suspend_connection))wh_library_function(&library, &slot, "MHD_suspend_connection"))(a0);
}
