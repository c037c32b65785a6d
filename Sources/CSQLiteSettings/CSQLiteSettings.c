#include <sqlite3.h>
#include "CSQLiteSettings.h"

// Runs when the binary loads, before anything can open a connection: sqlite3_config is refused once SQLite has
// initialized, and the first connection may be GRDB's (the catalog opens before any book), so a call from the
// store's own open came too late and was silently ignored. sqlite3_config is variadic, which Swift cannot call.
__attribute__((constructor)) static void carnet_sqlite_configure(void) {
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int carnet_sqlite_memory_statistics_enabled(void) {
    // With statistics off SQLite does not count its allocations, so the count stays zero whatever is open.
    return sqlite3_memory_used() != 0;
}
