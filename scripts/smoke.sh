#!/usr/bin/env bash
# Runs the three programs the way the README shows, against a throwaway
# store, and fails if any of them misbehaves.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step=""
trap 'echo "smoke: failed at: $step" >&2' ERR
export HOME="$tmp" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" NO_COLOR=1
bin=$(swift build --show-bin-path)

step="whilehere-sim shows a plan and a reminder with both buttons"
"$bin/whilehere-sim" > "$tmp/sim.txt"
grep -q "plan (no plan yet)" "$tmp/sim.txt"
grep -q "REMINDER  Buy milk .*\[Mark Done\]  \[Remind Later\]" "$tmp/sim.txt"

step="whilehere adds a task, checks a point, runs doctor"
"$bin/whilehere" task add "Buy milk" --at 60.1699,24.9384 --radius 150 --at 60.1675,24.9316 --radius 80 > /dev/null
# Output goes to files before grep: 'cmd | grep -q' lets grep exit at the
# first match and the writer die of SIGPIPE, which pipefail reports as 141.
"$bin/whilehere" check --at 60.1699,24.9384 > "$tmp/check.txt"
grep -q "Buy milk" "$tmp/check.txt"
"$bin/whilehere" doctor > "$tmp/doctor.txt"
grep -q "store     ok" "$tmp/doctor.txt"

step="whilehered starts, reports ready and stops on SIGTERM"
"$bin/whilehered" --store "file:$tmp/daemon" --listen 127.0.0.1:0 > "$tmp/daemon.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q ready "$tmp/daemon.txt" && break; sleep 0.1; done
grep -q "ready: profile headless" "$tmp/daemon.txt"
kill -TERM "$pid"
wait "$pid"
grep -q stopped "$tmp/daemon.txt"
echo "smoke: sim, cli and daemon ok"
