#!/usr/bin/env bash
# Runs every test (Swift Testing). WHILEHERE_CRASH_ITERATIONS=N raises the
# SIGKILL crash test's count from its default of 200. Without arguments it
# also runs the map page in headless Chromium (Tests/Browser); arguments
# are swift test's (e.g. --filter) and run only those.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-xctest "$@"
if [ $# -eq 0 ]; then
  swift build 2>&1 | grep -E "error:|warning:" || true
  python3 Tests/Browser/webapp_test.py .build/debug
fi
