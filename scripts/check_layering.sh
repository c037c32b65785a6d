#!/usr/bin/env bash
# The store's seam: nothing above the store sees SQL, GRDB or SQLite; only the places that open a backend name
# one. Fails listing every file that breaks it.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# No database module anywhere above the backends (the neutral core included).
if grep -rlE '^(@testable )?import (GRDB|GRDBSQLite|SQLite3|CSQLiteSettings|PostgresNIO)$' \
    Sources/CarnetStore Sources/CarnetVCard Sources/CarnetGraphQL Sources/CarnetGraphQLReference \
    Sources/CarnetServer Sources/carnet; then
    echo "error: the files above import a database module outside the backends" >&2
    status=1
fi
# A backend is named only where one is opened: the server's openBackend and the CLI's.
allowed='^Sources/(CarnetServer/Application/StoreBackend\+open|carnet/Carnet|carnet/ServeCommand)\.swift$'
offenders=$(grep -rlE '^import CarnetStore(SQLite|Postgres)$' Sources/CarnetStore Sources/CarnetVCard \
    Sources/CarnetGraphQL Sources/CarnetGraphQLReference Sources/CarnetServer Sources/carnet | grep -vE "$allowed" || true)
if [ -n "$offenders" ]; then
    echo "$offenders"
    echo "error: the files above name a backend; use the CarnetStore protocols" >&2
    status=1
fi
exit $status
