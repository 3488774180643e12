// Test helper: loads a library the way every shim's loader does.
//   library-loading-helper present   calls SQLite's sqlite3_libversion from 8 threads at once, prints it once
//   library-loading-helper absent    asks for a library no machine has (the loader must stop the program, 127)
//   library-loading-helper missing   asks SQLite for a function it does not have (likewise)
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "library_loading.h"

static struct wh_library sqlite = {{"libsqlite3.so.0", "libsqlite3.so", NULL}, "the helper's test", "libsqlite3-0", NULL};
static struct wh_library absent = {{"libwhilehere-absent.so.9", NULL}, "the helper's test", "whilehere-absent", NULL};
static void *_Atomic version_slot;
static const char *(*seen[8])(void);

static void *resolve(void *index) {
  seen[(long)index] = (const char *(*)(void))wh_library_function(&sqlite, &version_slot, "sqlite3_libversion");
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "present") == 0) {
    pthread_t threads[8];
    for (long index = 0; index < 8; index++) pthread_create(&threads[index], NULL, resolve, (void *)index);
    for (int index = 0; index < 8; index++) pthread_join(threads[index], NULL);
    for (int index = 1; index < 8; index++) {
      if (seen[index] != seen[0]) {
        fprintf(stderr, "threads found different addresses\n");
        return 1;
      }
    }
    printf("%s\n", seen[0]());
    return 0;
  }
  if (strcmp(mode, "absent") == 0) {
    static void *_Atomic slot;
    wh_library_function(&absent, &slot, "whilehere_nothing");
  } else if (strcmp(mode, "missing") == 0) {
    static void *_Atomic slot;
    wh_library_function(&sqlite, &slot, "sqlite3_whilehere_nothing");
  }
  fprintf(stderr, "the loader returned\n");
  return 2;
}
