#include <nats/nats.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// Small helpers over nats.c structs whose arrays of C strings and nested
// option blocks are awkward from Swift. Each returns the call's status.

// `nats://a:4222,nats://b:4222`: every server of a cluster, to connect to
// any and fail over to the others.
static inline natsStatus whilehere_nats_set_servers(natsOptions *options, const char *list) {
  char *copy = strdup(list);
  if (copy == NULL) return NATS_NO_MEMORY;
  const char *servers[16];
  int count = 0;
  char *save = NULL;
  for (char *part = strtok_r(copy, ",", &save); part != NULL && count < 16; part = strtok_r(NULL, ",", &save)) servers[count++] = part;
  natsStatus status = natsOptions_SetServers(options, servers, count);
  free(copy);
  return status;
}

// A stream on `subjects`, kept in files on `replicas` servers; a work
// queue removes a message once its consumer acknowledged it, and a
// `maxAgeNanos` above 0 removes any older than that.
static inline natsStatus whilehere_nats_create_stream(jsCtx *js, const char *name, const char *subjects, int64_t replicas, bool workQueue,
                                                      int64_t maxAgeNanos, jsErrCode *error) {
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  const char *list[1] = { subjects };
  config.Name = name;
  config.Subjects = list;
  config.SubjectsLen = 1;
  config.Storage = js_FileStorage;
  config.Replicas = replicas;
  if (workQueue) config.Retention = js_WorkQueuePolicy;
  config.MaxAge = maxAgeNanos;
  jsStreamInfo *info = NULL;
  natsStatus status = js_AddStream(&info, js, &config, NULL, error);
  if (info != NULL) jsStreamInfo_Destroy(info);
  return status;
}

static inline natsStatus whilehere_nats_add_stream(jsCtx *js, const char *name, const char *subjects, int64_t replicas, jsErrCode *error) {
  return whilehere_nats_create_stream(js, name, subjects, replicas, false, 0, error);
}

// How many replicas the stream `name` keeps (as made, whoever made it).
static inline natsStatus whilehere_nats_stream_replicas(jsCtx *js, const char *name, int64_t *replicas, jsErrCode *error) {
  jsStreamInfo *info = NULL;
  natsStatus status = js_GetStreamInfo(&info, js, name, NULL, error);
  *replicas = 0;
  if (info != NULL) {
    if (info->Config != NULL) *replicas = info->Config->Replicas;
    jsStreamInfo_Destroy(info);
  }
  return status;
}

static inline natsStatus whilehere_nats_stream_exists(jsCtx *js, const char *name, jsErrCode *error) {
  jsStreamInfo *info = NULL;
  natsStatus status = js_GetStreamInfo(&info, js, name, NULL, error);
  if (info != NULL) jsStreamInfo_Destroy(info);
  return status;
}

// Publishes and waits for JetStream's acknowledgement (stored on the
// stream's replicas). `expectedLast` 0 with `expectEmpty` asks that the
// subject holds nothing yet; otherwise its last sequence must be
// `expectedLast` (0: anything). JetStream keeps one message per
// `messageID` within the stream's duplicate window and answers a
// duplicate with the stored message's ack: an error unless
// `duplicateIsStored` (a report queued again after an answer that never
// came is the one already stored; a log's write would have stored nothing).
static inline natsStatus whilehere_nats_publish(jsCtx *js, const char *subject, const void *data, int length, uint64_t expectedLast,
                                                bool expectEmpty, const char *messageID, bool duplicateIsStored, uint64_t *sequence,
                                                jsErrCode *error) {
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = messageID;
  if (expectEmpty) options.ExpectNoMessage = true; else options.ExpectLastSubjectSeq = expectedLast;
  jsPubAck *ack = NULL;
  natsStatus status = js_Publish(&ack, js, subject, data, length, &options, error);
  if (ack != NULL) {
    *sequence = ack->Sequence;
    if (ack->Duplicate && !duplicateIsStored && status == NATS_OK) status = NATS_ERR;
    jsPubAck_Destroy(ack);
  }
  return status;
}

// The stream sequence of the subject's last message, or 0 when it has none.
static inline natsStatus whilehere_nats_last_sequence(jsCtx *js, const char *stream, const char *subject, uint64_t *sequence, jsErrCode *error) {
  natsMsg *message = NULL;
  natsStatus status = js_GetLastMsg(&message, js, stream, subject, NULL, error);
  *sequence = 0;
  if (status == NATS_NOT_FOUND) return NATS_OK;
  if (status == NATS_OK && message != NULL) {
    *sequence = natsMsg_GetSequence(message);
    natsMsg_Destroy(message);
  }
  return status;
}

// Removes `subject`'s messages below stream sequence `below` (those at or
// above it stay).
static inline natsStatus whilehere_nats_purge_below(jsCtx *js, const char *stream, const char *subject, uint64_t below, jsErrCode *error) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Stream.Purge.Subject = subject;
  options.Stream.Purge.Sequence = below;
  return js_PurgeStream(js, stream, &options, error);
}

// The subjects of `stream` matching `filter` that hold a message, as one
// stream-info request (no consumer made, unlike listing a bucket's keys):
// `*info` is NULL or owns them (jsStreamInfo_Destroy).
static inline natsStatus whilehere_nats_subjects(jsStreamInfo **info, jsCtx *js, const char *stream, const char *filter, jsErrCode *error) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Stream.Info.SubjectsFilter = filter;
  return js_GetStreamInfo(info, js, stream, &options, error);
}

// The key-value bucket `bucket` (one revision kept per key), made if it
// does not exist yet (or found, when another process made it meanwhile).
static inline natsStatus whilehere_nats_key_value(kvStore **kv, jsCtx *js, const char *bucket, int replicas) {
  natsStatus status = js_KeyValue(kv, js, bucket);
  if (status == NATS_OK) return status;
  kvConfig config;
  kvConfig_Init(&config);
  config.Bucket = bucket;
  config.History = 1;
  config.Replicas = replicas;
  config.StorageType = js_FileStorage;
  status = js_CreateKeyValue(kv, js, &config);
  if (status != NATS_OK) status = js_KeyValue(kv, js, bucket);
  return status;
}

// A work-queue stream for phone reports (`maxAgeNanos`: raw positions
// are not kept longer), made if it does not exist yet (or found, when
// another process made it meanwhile). One found with other subjects (an
// older build's) is given `subjects` instead.
static inline natsStatus whilehere_nats_work_queue(jsCtx *js, const char *name, const char *subjects, int64_t replicas, int64_t maxAgeNanos, jsErrCode *error) {
  jsErrCode ignored = 0;
  jsStreamInfo *found = NULL;
  if (js_GetStreamInfo(&found, js, name, NULL, &ignored) == NATS_OK && found != NULL) {
    natsStatus status = NATS_OK;
    jsStreamConfig *config = found->Config;
    if (config->SubjectsLen != 1 || strcmp(config->Subjects[0], subjects) != 0) {
      // Swapped in for the update only: destroying the info frees its own list.
      const char **own = config->Subjects;
      int ownLength = config->SubjectsLen;
      const char *list[1] = { subjects };
      config->Subjects = list;
      config->SubjectsLen = 1;
      jsStreamInfo *updated = NULL;
      status = js_UpdateStream(&updated, js, config, NULL, error);
      if (updated != NULL) jsStreamInfo_Destroy(updated);
      config->Subjects = own;
      config->SubjectsLen = ownLength;
    }
    jsStreamInfo_Destroy(found);
    return status;
  }
  natsStatus status = whilehere_nats_create_stream(js, name, subjects, replicas, true, maxAgeNanos, error);
  if (status != NATS_OK && whilehere_nats_stream_exists(js, name, &ignored) == NATS_OK) return NATS_OK;
  return status;
}

// A pull subscription on a partition's durable consumer, made anew so it
// starts at the partition's first unacknowledged message (a work queue
// keeps only those): whatever an earlier consumer had fetched and not
// acknowledged comes first, in order. A work queue wants each message
// acknowledged by itself.
static inline natsStatus whilehere_nats_partition_consumer(natsSubscription **subscription, jsCtx *js, const char *stream, const char *durable,
                                                           const char *subject, int64_t ackWaitNanos, jsErrCode *error) {
  jsErrCode ignored = 0;
  js_DeleteConsumer(js, stream, durable, NULL, &ignored);
  jsConsumerConfig config;
  jsConsumerConfig_Init(&config);
  config.Durable = durable;
  config.FilterSubject = subject;
  config.AckPolicy = js_AckExplicit;
  config.DeliverPolicy = js_DeliverAll;
  config.AckWait = ackWaitNanos;
  config.MaxAckPending = 4096;
  jsConsumerInfo *info = NULL;
  natsStatus status = js_AddConsumer(&info, js, stream, &config, NULL, error);
  if (info != NULL) jsConsumerInfo_Destroy(info);
  if (status != NATS_OK) return status;
  jsSubOptions options;
  jsSubOptions_Init(&options);
  options.Stream = stream;
  options.Consumer = durable;
  options.ManualAck = true;
  return js_PullSubscribe(subscription, js, subject, durable, NULL, &options, error);
}

// The stream sequence JetStream gave a message delivered by a consumer.
static inline natsStatus whilehere_nats_stream_sequence(natsMsg *message, uint64_t *sequence) {
  jsMsgMetaData *meta = NULL;
  natsStatus status = natsMsg_GetMetaData(&meta, message);
  if (status == NATS_OK) {
    *sequence = meta->Sequence.Stream;
    jsMsgMetaData_Destroy(meta);
  }
  return status;
}
