#!/usr/bin/env bash
# Runs the tests of the code that runs on many threads at once (the daemon,
# its HTTP and MQTT gateway, and the daemon's process tests, whose
# whilehered is built with the same sanitizer) under ThreadSanitizer.
# Shared state is behind `Locked` (a pthread mutex TSan sees; the standard
# `Mutex` it cannot judge on Linux: Docs/Architecture.md). Any report fails.
#   scripts/tsan.sh [FILTER]   default: DaemonTests|DaemonModuleTests|GatewayTests and the
#   FileStore suites whose stores fold on a thread of their own
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-DaemonTests|DaemonModuleTests|GatewayTests|FoldAlongsideWritesTests|FileOperationStoreTests}"
build=.build-tsan
swift build --build-tests --sanitize=thread --scratch-path "$build" 2>&1 | grep -E "error:|Compiling|complete" | tail -n 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# Left out: ClusterKillTests, a three-process cluster under load with
# bounds in seconds that TSan's slowdown of every worker breaks; the same
# worker code runs under TSan in-process (ClusterWorkerTests, NATS suites).
swift test --skip-build --sanitize=thread --scratch-path "$build" --filter "$filter" --skip ClusterKillTests >"$log" 2>&1 || status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
  # With the lines after each: a failed expectation's message (a daemon's
  # log, gpsfake's output) runs over several lines.
  grep -E -A 30 "WARNING: ThreadSanitizer|SUMMARY: ThreadSanitizer|✘" "$log" | head -n 300 >&2
  echo "tsan: $reports reports, tests exit $status (filter $filter)" >&2
  exit 1
fi
echo "tsan: $(grep -E "Test run with" "$log" | tail -n 1 | sed 's/^[^T]*//; s/\.$//'); no ThreadSanitizer reports (filter $filter)"
