#ifndef WH_LIBRARY_LOADING_H
#define WH_LIBRARY_LOADING_H

// A C library loaded at the first call of one of its functions instead of
// at the program's start (Modules/Shims/*/loader.c, written by
// scripts/make-library-loaders.py): a command that never calls it never
// pays for mapping it and what it pulls in.

// One library: the names to try in order (NULL-terminated), what needs it
// and the package that holds it, for the message when none loads.
struct wh_library {
  const char *names[4];
  const char *purpose;
  const char *package;
  void *_Atomic handle;
};

// The address of `name` in `library`, loading the library the first time
// and keeping the answer in `slot`. Safe from any thread. When the library
// or the function cannot be found the program cannot go on: it says which
// and how to install it on standard error and exits with status 127.
void *wh_library_function(struct wh_library *library, void *_Atomic *slot, const char *name);

#endif
