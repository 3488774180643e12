// Written by scripts/make-library-loaders.py: do not edit, run it again.
// Each function loads libnats.so.3.4 at its first call and calls the real one.
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <nats/nats.h>
#include "library_loading.h"

static struct wh_library library = {{"libnats.so.3.4", "libnats.so", NULL}, "nats: stores and the cluster", "libnats3.4"};

natsStatus jsConsumerConfig_Init(__typeof__(jsConsumerConfig *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&jsConsumerConfig_Init))wh_library_function(&library, &slot, "jsConsumerConfig_Init"))(a0);
}

void jsConsumerInfo_Destroy(__typeof__(jsConsumerInfo *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&jsConsumerInfo_Destroy))wh_library_function(&library, &slot, "jsConsumerInfo_Destroy"))(a0);
}

void jsCtx_Destroy(__typeof__(jsCtx *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&jsCtx_Destroy))wh_library_function(&library, &slot, "jsCtx_Destroy"))(a0);
}

void jsMsgMetaData_Destroy(__typeof__(jsMsgMetaData *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&jsMsgMetaData_Destroy))wh_library_function(&library, &slot, "jsMsgMetaData_Destroy"))(a0);
}

natsStatus jsOptions_Init(__typeof__(jsOptions *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&jsOptions_Init))wh_library_function(&library, &slot, "jsOptions_Init"))(a0);
}

void jsPubAck_Destroy(__typeof__(jsPubAck *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&jsPubAck_Destroy))wh_library_function(&library, &slot, "jsPubAck_Destroy"))(a0);
}

natsStatus jsPubOptions_Init(__typeof__(jsPubOptions *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&jsPubOptions_Init))wh_library_function(&library, &slot, "jsPubOptions_Init"))(a0);
}

natsStatus jsStreamConfig_Init(__typeof__(jsStreamConfig *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&jsStreamConfig_Init))wh_library_function(&library, &slot, "jsStreamConfig_Init"))(a0);
}

void jsStreamInfo_Destroy(__typeof__(jsStreamInfo *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&jsStreamInfo_Destroy))wh_library_function(&library, &slot, "jsStreamInfo_Destroy"))(a0);
}

natsStatus jsSubOptions_Init(__typeof__(jsSubOptions *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&jsSubOptions_Init))wh_library_function(&library, &slot, "jsSubOptions_Init"))(a0);
}

natsStatus js_AddConsumer(__typeof__(jsConsumerInfo **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(jsConsumerConfig *) a3, __typeof__(jsOptions *) a4, __typeof__(jsErrCode *) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&js_AddConsumer))wh_library_function(&library, &slot, "js_AddConsumer"))(a0, a1, a2, a3, a4, a5);
}

natsStatus js_AddStream(__typeof__(jsStreamInfo **) a0, __typeof__(jsCtx *) a1, __typeof__(jsStreamConfig *) a2, __typeof__(jsOptions *) a3, __typeof__(jsErrCode *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&js_AddStream))wh_library_function(&library, &slot, "js_AddStream"))(a0, a1, a2, a3, a4);
}

natsStatus js_CreateKeyValue(__typeof__(kvStore **) a0, __typeof__(jsCtx *) a1, __typeof__(kvConfig *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&js_CreateKeyValue))wh_library_function(&library, &slot, "js_CreateKeyValue"))(a0, a1, a2);
}

natsStatus js_DeleteConsumer(__typeof__(jsCtx *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(jsOptions *) a3, __typeof__(jsErrCode *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&js_DeleteConsumer))wh_library_function(&library, &slot, "js_DeleteConsumer"))(a0, a1, a2, a3, a4);
}

natsStatus js_DirectGetMsg(__typeof__(natsMsg **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(jsOptions *) a3, __typeof__(jsDirectGetMsgOptions *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&js_DirectGetMsg))wh_library_function(&library, &slot, "js_DirectGetMsg"))(a0, a1, a2, a3, a4);
}

natsStatus js_GetLastMsg(__typeof__(natsMsg **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(const char *) a3, __typeof__(jsOptions *) a4, __typeof__(jsErrCode *) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&js_GetLastMsg))wh_library_function(&library, &slot, "js_GetLastMsg"))(a0, a1, a2, a3, a4, a5);
}

natsStatus js_GetStreamInfo(__typeof__(jsStreamInfo **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(jsOptions *) a3, __typeof__(jsErrCode *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&js_GetStreamInfo))wh_library_function(&library, &slot, "js_GetStreamInfo"))(a0, a1, a2, a3, a4);
}

natsStatus js_KeyValue(__typeof__(kvStore **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&js_KeyValue))wh_library_function(&library, &slot, "js_KeyValue"))(a0, a1, a2);
}

natsStatus js_Publish(__typeof__(jsPubAck **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(const void *) a3, __typeof__(int) a4, __typeof__(jsPubOptions *) a5, __typeof__(jsErrCode *) a6) {
  static void *_Atomic slot;
  return ((__typeof__(&js_Publish))wh_library_function(&library, &slot, "js_Publish"))(a0, a1, a2, a3, a4, a5, a6);
}

natsStatus js_PullSubscribe(__typeof__(natsSubscription **) a0, __typeof__(jsCtx *) a1, __typeof__(const char *) a2, __typeof__(const char *) a3, __typeof__(jsOptions *) a4, __typeof__(jsSubOptions *) a5, __typeof__(jsErrCode *) a6) {
  static void *_Atomic slot;
  return ((__typeof__(&js_PullSubscribe))wh_library_function(&library, &slot, "js_PullSubscribe"))(a0, a1, a2, a3, a4, a5, a6);
}

natsStatus js_PurgeStream(__typeof__(jsCtx *) a0, __typeof__(const char *) a1, __typeof__(jsOptions *) a2, __typeof__(jsErrCode *) a3) {
  static void *_Atomic slot;
  return ((__typeof__(&js_PurgeStream))wh_library_function(&library, &slot, "js_PurgeStream"))(a0, a1, a2, a3);
}

natsStatus js_UpdateStream(__typeof__(jsStreamInfo **) a0, __typeof__(jsCtx *) a1, __typeof__(jsStreamConfig *) a2, __typeof__(jsOptions *) a3, __typeof__(jsErrCode *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&js_UpdateStream))wh_library_function(&library, &slot, "js_UpdateStream"))(a0, a1, a2, a3, a4);
}

natsStatus kvConfig_Init(__typeof__(kvConfig *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&kvConfig_Init))wh_library_function(&library, &slot, "kvConfig_Init"))(a0);
}

void kvEntry_Destroy(__typeof__(kvEntry *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&kvEntry_Destroy))wh_library_function(&library, &slot, "kvEntry_Destroy"))(a0);
}

uint64_t kvEntry_Revision(__typeof__(kvEntry *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&kvEntry_Revision))wh_library_function(&library, &slot, "kvEntry_Revision"))(a0);
}

const void * kvEntry_Value(__typeof__(kvEntry *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&kvEntry_Value))wh_library_function(&library, &slot, "kvEntry_Value"))(a0);
}

int kvEntry_ValueLen(__typeof__(kvEntry *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&kvEntry_ValueLen))wh_library_function(&library, &slot, "kvEntry_ValueLen"))(a0);
}

natsStatus kvStore_Create(__typeof__(uint64_t *) a0, __typeof__(kvStore *) a1, __typeof__(const char *) a2, __typeof__(const void *) a3, __typeof__(int) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&kvStore_Create))wh_library_function(&library, &slot, "kvStore_Create"))(a0, a1, a2, a3, a4);
}

void kvStore_Destroy(__typeof__(kvStore *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&kvStore_Destroy))wh_library_function(&library, &slot, "kvStore_Destroy"))(a0);
}

natsStatus kvStore_Get(__typeof__(kvEntry **) a0, __typeof__(kvStore *) a1, __typeof__(const char *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&kvStore_Get))wh_library_function(&library, &slot, "kvStore_Get"))(a0, a1, a2);
}

natsStatus kvStore_Update(__typeof__(uint64_t *) a0, __typeof__(kvStore *) a1, __typeof__(const char *) a2, __typeof__(const void *) a3, __typeof__(int) a4, __typeof__(uint64_t) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&kvStore_Update))wh_library_function(&library, &slot, "kvStore_Update"))(a0, a1, a2, a3, a4, a5);
}

natsStatus natsConnection_Connect(__typeof__(natsConnection **) a0, __typeof__(natsOptions *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&natsConnection_Connect))wh_library_function(&library, &slot, "natsConnection_Connect"))(a0, a1);
}

void natsConnection_Destroy(__typeof__(natsConnection *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&natsConnection_Destroy))wh_library_function(&library, &slot, "natsConnection_Destroy"))(a0);
}

natsStatus natsConnection_JetStream(__typeof__(jsCtx **) a0, __typeof__(natsConnection *) a1, __typeof__(jsOptions *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&natsConnection_JetStream))wh_library_function(&library, &slot, "natsConnection_JetStream"))(a0, a1, a2);
}

natsStatus natsConnection_Request(__typeof__(natsMsg **) a0, __typeof__(natsConnection *) a1, __typeof__(const char *) a2, __typeof__(const void *) a3, __typeof__(int) a4, __typeof__(int64_t) a5) {
  static void *_Atomic slot;
  return ((__typeof__(&natsConnection_Request))wh_library_function(&library, &slot, "natsConnection_Request"))(a0, a1, a2, a3, a4, a5);
}

natsConnStatus natsConnection_Status(__typeof__(natsConnection *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsConnection_Status))wh_library_function(&library, &slot, "natsConnection_Status"))(a0);
}

void natsMsgList_Destroy(__typeof__(natsMsgList *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&natsMsgList_Destroy))wh_library_function(&library, &slot, "natsMsgList_Destroy"))(a0);
}

natsStatus natsMsg_Ack(__typeof__(natsMsg *) a0, __typeof__(jsOptions *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_Ack))wh_library_function(&library, &slot, "natsMsg_Ack"))(a0, a1);
}

natsStatus natsMsg_AckSync(__typeof__(natsMsg *) a0, __typeof__(jsOptions *) a1, __typeof__(jsErrCode *) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_AckSync))wh_library_function(&library, &slot, "natsMsg_AckSync"))(a0, a1, a2);
}

void natsMsg_Destroy(__typeof__(natsMsg *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&natsMsg_Destroy))wh_library_function(&library, &slot, "natsMsg_Destroy"))(a0);
}

const char * natsMsg_GetData(__typeof__(const natsMsg *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_GetData))wh_library_function(&library, &slot, "natsMsg_GetData"))(a0);
}

int natsMsg_GetDataLength(__typeof__(const natsMsg *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_GetDataLength))wh_library_function(&library, &slot, "natsMsg_GetDataLength"))(a0);
}

natsStatus natsMsg_GetMetaData(__typeof__(jsMsgMetaData **) a0, __typeof__(natsMsg *) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_GetMetaData))wh_library_function(&library, &slot, "natsMsg_GetMetaData"))(a0, a1);
}

uint64_t natsMsg_GetSequence(__typeof__(natsMsg *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_GetSequence))wh_library_function(&library, &slot, "natsMsg_GetSequence"))(a0);
}

const char * natsMsg_GetSubject(__typeof__(const natsMsg *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsMsg_GetSubject))wh_library_function(&library, &slot, "natsMsg_GetSubject"))(a0);
}

natsStatus natsOptions_Create(__typeof__(natsOptions **) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsOptions_Create))wh_library_function(&library, &slot, "natsOptions_Create"))(a0);
}

void natsOptions_Destroy(__typeof__(natsOptions *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&natsOptions_Destroy))wh_library_function(&library, &slot, "natsOptions_Destroy"))(a0);
}

natsStatus natsOptions_SetMaxReconnect(__typeof__(natsOptions *) a0, __typeof__(int) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&natsOptions_SetMaxReconnect))wh_library_function(&library, &slot, "natsOptions_SetMaxReconnect"))(a0, a1);
}

natsStatus natsOptions_SetServers(__typeof__(natsOptions *) a0, __typeof__(const char **) a1, __typeof__(int) a2) {
  static void *_Atomic slot;
  return ((__typeof__(&natsOptions_SetServers))wh_library_function(&library, &slot, "natsOptions_SetServers"))(a0, a1, a2);
}

natsStatus natsOptions_SetTimeout(__typeof__(natsOptions *) a0, __typeof__(int64_t) a1) {
  static void *_Atomic slot;
  return ((__typeof__(&natsOptions_SetTimeout))wh_library_function(&library, &slot, "natsOptions_SetTimeout"))(a0, a1);
}

const char * natsStatus_GetText(__typeof__(natsStatus) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&natsStatus_GetText))wh_library_function(&library, &slot, "natsStatus_GetText"))(a0);
}

void natsSubscription_Destroy(__typeof__(natsSubscription *) a0) {
  static void *_Atomic slot;
  ((__typeof__(&natsSubscription_Destroy))wh_library_function(&library, &slot, "natsSubscription_Destroy"))(a0);
}

natsStatus natsSubscription_Fetch(__typeof__(natsMsgList *) a0, __typeof__(natsSubscription *) a1, __typeof__(int) a2, __typeof__(int64_t) a3, __typeof__(jsErrCode *) a4) {
  static void *_Atomic slot;
  return ((__typeof__(&natsSubscription_Fetch))wh_library_function(&library, &slot, "natsSubscription_Fetch"))(a0, a1, a2, a3, a4);
}

const char * nats_GetLastError(__typeof__(natsStatus *) a0) {
  static void *_Atomic slot;
  return ((__typeof__(&nats_GetLastError))wh_library_function(&library, &slot, "nats_GetLastError"))(a0);
}
