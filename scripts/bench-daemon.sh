#!/usr/bin/env bash
# Load benchmark for whilehered: wrk posts OwnTracks locations for PEOPLE
# people (default 100) over CONNECTIONS connections for SECONDS seconds,
# against a release build with a durable file store. Baseline in the same
# run: GET /health (the HTTP server alone, no login, no store). Prints the
# workload, durable fixes per second, latency percentiles and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
people=${PEOPLE:-100}
connections=${CONNECTIONS:-100}
seconds=${SECONDS_PER_RUN:-15}
threads=${THREADS:-2}
command -v wrk >/dev/null || { echo "bench-daemon: wrk is missing: apt-get install wrk" >&2; exit 1; }
swift build -c release --product whilehered >/dev/null
swift build -c release --product whilehere >/dev/null
bin=$(swift build -c release --show-bin-path)
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
config="$tmp/config.json"
echo "{\"store\": \"file:$tmp/store\", \"notify\": [], \"server\": {\"listen\": \"127.0.0.1:0\"}}" > "$config"
echo "auth = {" > "$tmp/people.lua"
for i in $(seq 1 "$people"); do
  name="person$i"
  echo "password-$i" > "$tmp/pw"
  "$bin/whilehere" --config "$config" user add "$name" --password-file "$tmp/pw" >/dev/null
  # A task near the middle of the area for every person, so fixes meet real plans.
  "$bin/whilehere" --store "file:$tmp/store/people/$name" task add "Errand $i" --at 60.17,24.94 --radius 150 >/dev/null
  printf '  "Basic %s",\n' "$(printf '%s:%s' "$name" "password-$i" | base64 -w0)" >> "$tmp/people.lua"
done
echo "}" >> "$tmp/people.lua"
"$bin/whilehered" --config "$config" > "$tmp/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do grep -q "ready:" "$tmp/daemon.log" && break; sleep 0.05; done
base=$(grep -o 'listening http://[0-9.:]*' "$tmp/daemon.log" | cut -d' ' -f2)
[ -n "$base" ] || { cat "$tmp/daemon.log" >&2; exit 1; }
# Every person logs in once, so the run measures ingest, not Argon2id.
export WHILEHERE_BENCH_PEOPLE="$tmp/people.lua"
wrk -t1 -c"$people" -d2s -s Benchmarks/DaemonLoad/owntracks.lua "$base" >/dev/null

echo "workload: $people people, $connections connections, $threads wrk threads, ${seconds}s per run, durable file store, $(nproc) cores"
wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "$base/health" > "$tmp/health.txt"
wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s Benchmarks/DaemonLoad/owntracks.lua "$base" > "$tmp/fixes.txt"
summary() {
  local file=$1 label=$2
  local rate p50 p99 errors
  rate=$(awk '/Requests\/sec/ {print $2}' "$file")
  p50=$(awk '$1 == "50%" {print $2}' "$file")
  p99=$(awk '$1 == "99%" {print $2}' "$file")
  errors=$(awk '/Non-2xx/ {print $5}' "$file")
  printf '%-28s %10s req/s   p50 %-9s p99 %-9s non-2xx %s\n' "$label" "$rate" "$p50" "$p99" "${errors:-0}"
}
summary "$tmp/health.txt" "baseline GET /health"
summary "$tmp/fixes.txt" "durable OwnTracks fixes"
awk -v a="$(awk '/Requests\/sec/ {print $2}' "$tmp/fixes.txt")" -v b="$(awk '/Requests\/sec/ {print $2}' "$tmp/health.txt")" \
  'BEGIN { printf "fixes / baseline: %.2f\n", a / b }'
kill -TERM "$pid"
wait "$pid" || true
