#!/usr/bin/env bash
# whilehered workers on NATS JetStream under load (1 and 3 workers by
# default): queued fixes/s with p50/p99, applied fixes/s, backlog.
# Details: scripts/bench-cluster.py.
#   bash scripts/bench-cluster.sh [WORKERS...]     PEOPLE=1000 SECONDS_PER_RUN=15 CONNECTIONS=100
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "bench-cluster: wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v nats-server >/dev/null || { echo "bench-cluster: nats-server is missing: apt-get install nats-server" >&2; exit 1; }
swift build -c release --product whilehered >/dev/null
swift build -c release --product whilehere >/dev/null
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec python3 scripts/bench-cluster.py "$(swift build -c release --show-bin-path)" "$@"
