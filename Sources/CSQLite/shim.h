// Debian's SQLite 3 (libsqlite3-dev): the SQLite feed source (Sources/RefreshFeeds/SQLite, docs/FEEDS.md).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: "copy the bytes before returning".
static inline sqlite3_destructor_type refreshkit_sqlite_transient(void) { return SQLITE_TRANSIENT; }
