#include <sqlite3.h>
#include "CSQLiteSettings.h"

// sqlite3_config is variadic, which Swift cannot call: this is the one place that does.
int carnet_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
