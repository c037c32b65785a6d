#!/usr/bin/env bash
# The whole test suite RUNS times (10 by default) in each of three settings, interleaved so that an interrupted
# run has tried each as often: as it is, on one core (taskset -c 0), and beside a busy loop on every core.
# Stops at the first failure and prints the end of its log (the generated tests print their seeds there).
# Usage: scripts/stress_tests.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
export CARNET_REQUIRE_PYTHON_CLIENTS="${CARNET_REQUIRE_PYTHON_CLIENTS:-1}"
swift build --build-tests
logs=$(mktemp -d)
hogs=()
stop_hogs() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    hogs=()
}
trap stop_hogs EXIT
for run in $(seq 1 "$runs"); do
    for setting in plain one-core hog; do
        log="$logs/$setting-$run.log"
        started=$(date +%s)
        case "$setting" in
            plain) command=(swift test --skip-build) ;;
            one-core) command=(taskset -c 0 swift test --skip-build) ;;
            hog)
                for _ in $(seq 1 "$(nproc)"); do
                    bash -c 'while :; do :; done' &
                    hogs+=($!)
                done
                command=(swift test --skip-build)
                ;;
        esac
        if ! "${command[@]}" >"$log" 2>&1; then
            stop_hogs
            echo "run $run ($setting) FAILED after $(($(date +%s) - started)) s; log: $log"
            grep -E "✘|failed|seed" "$log" | head -40
            exit 1
        fi
        stop_hogs
        echo "run $run ($setting) passed in $(($(date +%s) - started)) s: $(grep -Eo 'Test run with [0-9]+ tests' "$log")"
    done
done
echo "$((runs * 3)) runs passed"
