#!/usr/bin/env bash
# Load and restart-storm benchmark for whilehered at several sizes (default
# 10 100 1000 10000 people): durable OwnTracks fixes per second with p50/p99
# and their ratio to GET /health on the same server (wrk), then a restart
# storm (every phone posting at once after a restart): time until all are
# served, /health latency during it, peak memory. Details: scripts/bench-daemon.py.
#   bash scripts/bench-daemon.sh [SIZES...]     SECONDS_PER_RUN=15 CONNECTIONS=100 THREADS=2
#   PERF_OUT=PREFIX records the daemon with perf during each size's fixes run (PREFIX-SIZE.data)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "bench-daemon: wrk is missing: apt-get install wrk" >&2; exit 1; }
swift build -c release --product whilehered >/dev/null
swift build -c release --product whilehere >/dev/null
# 10,000 people's stores need about 10,640 open files (the daemon says so if the limit is lower).
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec python3 scripts/bench-daemon.py "$(swift build -c release --show-bin-path)" "$@"
