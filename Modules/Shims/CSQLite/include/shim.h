#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text and
// blobs are copied by SQLite before the call returns.
static inline void (*whilehere_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
