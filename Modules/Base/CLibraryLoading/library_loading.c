#include "library_loading.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *load(struct wh_library *library) {
  void *handle = atomic_load_explicit(&library->handle, memory_order_acquire);
  if (handle != NULL) return handle;
  const char *error = "not found";
  for (int index = 0; index < 4 && library->names[index] != NULL; index++) {
    // Two threads may both load it: dlopen counts references and answers the same handle.
    handle = dlopen(library->names[index], RTLD_NOW | RTLD_GLOBAL);
    if (handle != NULL) break;
    error = dlerror();
  }
  if (handle == NULL) {
    fprintf(stderr, "whilehere: cannot load %s, which %s needs (%s): install Debian's %s (scripts/setup.sh does)\n",
            library->names[0], library->purpose, error ? error : "not found", library->package);
    _exit(127);
  }
  atomic_store_explicit(&library->handle, handle, memory_order_release);
  return handle;
}

void *wh_library_function(struct wh_library *library, void *_Atomic *slot, const char *name) {
  void *function = atomic_load_explicit(slot, memory_order_acquire);
  if (function != NULL) return function;
  function = dlsym(load(library), name);
  if (function == NULL) {
    fprintf(stderr, "whilehere: %s has no function %s, which %s needs: install Debian's %s (scripts/setup.sh does)\n",
            library->names[0], name, library->purpose, library->package);
    _exit(127);
  }
  atomic_store_explicit(slot, function, memory_order_release);
  return function;
}
