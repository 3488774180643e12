#!/usr/bin/env bash
# whilehered workers on NATS JetStream under load (1 and 3 workers by
# default): queued fixes/s with p50/p99, applied fixes/s, backlog, CPU per
# fix and memory per person; then, in the same run, a worker killed under
# load (scripts/bench-takeover.py: takeover time, fixes and reminders kept).
# Details: scripts/bench-cluster.py.
#   bash scripts/bench-cluster.sh [WORKERS...]     PEOPLE=1000 SECONDS_PER_RUN=15 CONNECTIONS=100 TAKEOVER=1
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "bench-cluster: wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v nats-server >/dev/null || { echo "bench-cluster: nats-server is missing: apt-get install nats-server" >&2; exit 1; }
swift build -c release --product whilehered >/dev/null
swift build -c release --product whilehere >/dev/null
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
BIN=$(swift build -c release --show-bin-path)
python3 scripts/bench-cluster.py "$BIN" "$@"
# TAKEOVER=0 leaves the kill out.
if [ "${TAKEOVER:-1}" != 0 ]; then
  echo
  python3 scripts/bench-takeover.py "$BIN"
fi
