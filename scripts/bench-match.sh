#!/usr/bin/env bash
# The spatial index against ../shared/bench/grid.c (the plain C grid peers
# are compared with) on the same gen.py files, in the same run, RUNS times
# each, alternating; prints every run and the ratios (Swift / C).
#   bash scripts/bench-match.sh [PLACES] [FIXES]      RUNS=3 (default 1000000 200000)
set -euo pipefail
cd "$(dirname "$0")/.."
PLACES=${1:-1000000}
FIXES=${2:-200000}
RUNS=${RUNS:-3}
SHARED=../shared/bench
[ -f "$SHARED/grid.c" ] || { echo "bench-match: $SHARED/grid.c is missing (it lives beside the project)" >&2; exit 1; }
DIR=/tmp/whilehere-gen-$PLACES-$FIXES
[ -f "$DIR/places.csv" ] || python3 "$SHARED/gen.py" --places "$PLACES" --fixes "$FIXES" --outdir "$DIR" >/dev/null
cc -O2 -o /tmp/whilehere-grid "$SHARED/grid.c" -lm
swift build -c release --product whilehere-sim >/dev/null
BIN=$(swift build -c release --show-bin-path)/whilehere-sim
echo "workload: gen.py --places $PLACES --fixes $FIXES; one core each; $RUNS runs, alternating"
for _ in $(seq "$RUNS"); do
  "$BIN" bench match --places "$DIR/places.csv" --fixes "$DIR/fixes.csv"
  /tmp/whilehere-grid "$DIR/places.csv" "$DIR/fixes.csv"
done | tee /tmp/whilehere-bench-match.jsonl
python3 - <<'PY'
import json
runs = [json.loads(line) for line in open("/tmp/whilehere-bench-match.jsonl")]
swift = [r for r in runs if r["engine"].startswith("whilehere")]
c = [r for r in runs if r["engine"] == "c_grid"]
assert all(r["checksum"] == c[0]["checksum"] and r["matches"] == c[0]["matches"] for r in runs), "the engines disagree"
match = [s["fixes_per_s"] / g["fixes_per_s"] for s, g in zip(swift, c)]
load = [s["load_s"] / g["load_s"] for s, g in zip(swift, c)]
print(f"same matches and checksum in every run; match speed whilehere/C {min(match):.2f}-{max(match):.2f}x, load time whilehere/C {min(load):.2f}-{max(load):.2f}x")
PY
