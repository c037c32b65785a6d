#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests (trust authentication, loopback only) and prints the URL to
# export as CARNET_TEST_POSTGRES_URL. Needs Debian's postgresql package (apt-get install postgresql).
#   export CARNET_TEST_POSTGRES_URL=$(scripts/postgres_test_cluster.sh)
# As root it uses Debian's cluster tools (the server refuses to run as root); otherwise initdb in a temporary folder.
set -euo pipefail
port="${CARNET_TEST_POSTGRES_PORT:-54329}"
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
bin="/usr/lib/postgresql/$version/bin"
url="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"

# Only the URL goes to standard output: the cluster tools print notes there ("Removed stale pid file."), which
# would otherwise become part of the captured URL. The server started here inherits standard error, not the
# caller's pipe, so a command substitution does not wait for it.
start_cluster() {
    if [ "$(id -u)" = 0 ]; then
        if ! pg_lsclusters -h | awk '{print $2}' | grep -qx carnet-test; then
            # Every test backend opens a pool: room for many at once.
            pg_createcluster "$version" carnet-test -p "$port" -o max_connections=500 -- --auth=trust >/dev/null
        fi
        pg_ctlcluster "$version" carnet-test start
    else
        data=$(mktemp -d /tmp/carnet-postgres.XXXXXX)
        "$bin/initdb" -D "$data" -U postgres --auth=trust >/dev/null
        "$bin/pg_ctl" -D "$data" -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=500" \
            -l "$data/server.log" -w start \
            >/dev/null
    fi
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p "$port" && break
        sleep 1
    done
    pg_isready -q -h 127.0.0.1 -p "$port"
}

if ! pg_isready -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
    start_cluster >&2
fi
echo "$url"
