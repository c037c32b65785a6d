#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Turns off SQLite's memory statistics for the whole process (SQLITE_CONFIG_MEMSTATUS = 0). With them on, every
/// allocation SQLite makes takes one global mutex, which concurrent readers on different threads contend for.
/// Must run before SQLite initializes (before the first connection opens); returns SQLite's result code
/// (SQLITE_MISUSE, 21, when it was too late and nothing changed).
int carnet_sqlite_disable_memory_statistics(void);

#endif
