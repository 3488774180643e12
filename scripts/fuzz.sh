#!/usr/bin/env bash
# Builds every libFuzzer harness in Fuzz/ with AddressSanitizer and runs each
# for SECONDS (default 600), printing per harness its executions, coverage,
# whether it crashed, leaked, timed out or ran out of memory, and the most
# heap and CPU one input took against bounds proportional to its size
# (Fuzz/Sources/FuzzBounds; a harness over them fails). The working
# corpus lives in .build-fuzz/corpus (kept between runs); crashes are saved
# in .build-fuzz/artifacts. Exit status 1 when any harness failed.
#   scripts/fuzz.sh [SECONDS] [HARNESS…]   FUZZ_CONFIGURATION=debug for a quicker build
# FUZZ_SEED=N makes a run reproducible (CI's smoke run uses one: a CI failure
# must be one anyone can rerun, not a dice roll); unset, every run explores anew.
# Naming harnesses runs only those (e.g. two halves at once on two cores).
# FUZZ_BUILD_PATH (default .build-fuzz) builds and keeps corpora elsewhere, so
# a second build can run while the first one's harnesses still do.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
configuration="${FUZZ_CONFIGURATION:-release}"
build="${FUZZ_BUILD_PATH:-.build-fuzz}"
# SwiftPM's --sanitize fuzzer links libFuzzer but does not instrument Swift
# code for coverage here; the counters libFuzzer reads are asked for explicitly.
swift build --package-path Fuzz --build-path "$build" -c "$configuration" --sanitize fuzzer --sanitize address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp 2>&1 | grep -E "error:|Compiling|complete" | tail -n 3
bin="$build/$configuration"

dictionary() {
  case "$1" in
    FuzzImport) echo Fuzz/Dictionaries/xml.dict ;;
    FuzzICalendar) echo Fuzz/Dictionaries/ical.dict ;;
    FuzzGpsd|FuzzJSON|FuzzOwnTracks|FuzzScenario|FuzzSyncLine|FuzzBackup|FuzzOverpass|FuzzPlaces|FuzzWorld|FuzzConfig|FuzzGeoJSON|FuzzHTTP) echo Fuzz/Dictionaries/json.dict ;;
    FuzzStore) echo Fuzz/Dictionaries/store.dict ;;
    FuzzArguments) echo Fuzz/Dictionaries/arguments.dict ;;
  esac
}

# libFuzzer's leak check after each input, per harness. FuzzHTTP's answers
# are made on the daemon's worker threads, which let go of their copy just
# after the harness has its answer: an input can end with that copy alive,
# held only through Data's enum (its tag in the pointer's spare bits, which
# LeakSanitizer does not read as a pointer), and be reported as a leak
# (CI, 2026-12-05). LeakSanitizer still runs over FuzzHTTP at exit, when
# every worker is done: a leak is still found, without its input.
leak_check() {
  case "$1" in
    FuzzHTTP) echo -detect_leaks=0 ;;
    *) echo -detect_leaks=1 ;;
  esac
}

# Real files, when ../shared is beside the checkout (CI has it).
seed_shared() {
  local harness=$1 corpus=$2
  [ -d ../shared/data ] || return 0
  case "$harness" in
    FuzzImport)
      for file in ../shared/data/takeout/*.csv ../shared/data/takeout/variants/*.csv; do [ -f "$file" ] && { printf '\000'; head -c 16384 "$file"; } > "$corpus/shared-$(basename "$file" | tr ' ' _)"; done
      for file in ../shared/data/takeout/*.json ../shared/data/takeout/variants/*.json; do [ -f "$file" ] && { printf '\001'; head -c 16384 "$file"; } > "$corpus/shared-$(basename "$file" | tr ' ' _)"; done ;;
    FuzzJSON)
      head -c 16384 ../shared/data/takeout/truth.json > "$corpus/shared-truth.json" 2>/dev/null || true ;;
  esac
}

failed=0
printf '%-15s %12s %9s %9s %8s %10s %8s  %s\n' harness executions exec/s coverage corpus "peak heap" "CPU ms" result
all=(FuzzJSON FuzzOwnTracks FuzzGpsd FuzzImport FuzzICalendar FuzzSyncLine FuzzBackup FuzzScenario FuzzStore FuzzOverpass FuzzPlaces FuzzArguments FuzzWorld FuzzConfig FuzzGeoJSON FuzzHTTP)
harnesses=("${@:2}")
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${all[@]}")
for harness in "${harnesses[@]}"; do
  [[ " ${all[*]} " == *" $harness "* ]] || { echo "fuzz: unknown harness $harness (known: ${all[*]})" >&2; exit 2; }
done
for harness in "${harnesses[@]}"; do
  corpus="$build/corpus/$harness"
  artifacts="$build/artifacts/$harness"
  mkdir -p "$corpus" "$artifacts"
  cp -n Fuzz/Seeds/"$harness"/* "$corpus"/ 2>/dev/null || true
  seed_shared "$harness" "$corpus"
  log="$build/$harness.log"
  status=0
  seed=()
  [ -z "${FUZZ_SEED:-}" ] || seed=(-seed="$FUZZ_SEED")
  WHILEHERE_FUZZ_SEEDS="$corpus" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" \
    "$bin/$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 "${seed[@]}" "$(leak_check "$harness")" \
    -dict="$(dictionary "$harness")" -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1 || status=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
  files=$(find "$corpus" -type f | wc -l)
  result=ok
  if [ "$status" -ne 0 ]; then
    failed=1
    why=$(grep -oE 'FuzzBounds: [A-Za-z]+ (held|took) .*|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z-]+|Fatal error.*|deadly signal|timeout|out-of-memory' "$log" | head -n 1 || true)
    result="FAILED (${why:-exit $status}); see $log"
    # What broke and the input, in the printed log, for a machine whose files are gone (CI).
    grep -m 3 -E 'Precondition failed|Fatal error|ERROR: |FuzzBounds: [A-Za-z]+ (held|took)' "$log" | cut -c 1-400 >&2 || true
    crash=$(ls -t "$artifacts"/ 2>/dev/null | head -n 1)
    [ -z "$crash" ] || echo "input ($crash, base64): $(head -c 4096 "$artifacts/$crash" | base64 -w 0)" >&2
  fi
  # The most heap one input held at its peak and the most CPU one took (Fuzz/Sources/FuzzBounds).
  bounds=$(grep -oE 'most heap [0-9]+ bytes.*most CPU [0-9.]+ ms' "$log" | tail -n 1 || true)
  heap=$(echo "$bounds" | grep -oE 'most heap [0-9]+' | grep -oE '[0-9]+$' || echo -)
  cpu=$(echo "$bounds" | grep -oE 'most CPU [0-9.]+' | grep -oE '[0-9.]+$' || echo -)
  printf '%-15s %12s %9s %9s %8s %10s %8s  %s\n' "$harness" "$runs" "$speed" "$coverage" "$files" "${heap:--}" "${cpu:--}" "$result"
done
exit "$failed"
