#!/usr/bin/env bash
# The sync model test's long run: COUNT random schedules (100,000 by default) of writers, pull clients, slow
# subscribers, restarts and forced expiry, each checked for divergence. CI runs 1,000 with `swift test`.
# Usage: scripts/sync_model_long.sh [COUNT] [BASE_SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARNET_SYNC_SCHEDULES="${1:-100000}"
if [[ $# -ge 2 ]]; then export CARNET_SYNC_BASE_SEED="$2"; fi
swift build --build-tests
# Run a copy of the test binary: `swift test` would hold the build folder's lock for the whole run.
binary=$(mktemp -d)/CarnetPackageTests.xctest
cp "$(swift build --show-bin-path)/CarnetPackageTests.xctest" "$binary"
started=$(date +%s)
"$binary" --testing-library swift-testing --filter SyncModelTests 2>&1 | grep -E "sync model batch|failed|passed after|seed "
echo "$CARNET_SYNC_SCHEDULES schedules in $(( $(date +%s) - started )) s"
