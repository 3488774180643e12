#!/usr/bin/env bash
# Runs every test (Swift Testing). WHILEHERE_CRASH_ITERATIONS=N raises the
# SIGKILL crash test's count from its default of 200.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-xctest "$@"
