#!/usr/bin/env bash
# A whilehered worker killed with SIGKILL under load: seconds until the
# others hold its partitions, and whether every acknowledged fix was
# applied. Details: scripts/bench-takeover.py.
#   bash scripts/bench-takeover.sh      PEOPLE=1000 WARM=5 AFTER=25 CLIENTS=8
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nats-server >/dev/null || { echo "bench-takeover: nats-server is missing: apt-get install nats-server" >&2; exit 1; }
swift build -c release --product whilehered >/dev/null
swift build -c release --product whilehere >/dev/null
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec python3 scripts/bench-takeover.py "$(swift build -c release --show-bin-path)"
