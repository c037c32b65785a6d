#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Process-wide SQLite settings, applied when the binary loads: memory statistics off (SQLITE_CONFIG_MEMSTATUS =
/// 0). With them on, every allocation SQLite makes takes one global mutex, which requests reading on different
/// threads contend for.
///
/// Returns whether SQLite counts its allocations (1 if the settings did not take effect), for tests.
int carnet_sqlite_memory_statistics_enabled(void);

#endif
