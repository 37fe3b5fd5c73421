#!/usr/bin/env bash
# Every benchmark in bench/, one after another, in one loop (CI does not run them): each must run
# after any other and exit 0. Prints each one's first failure line, and a summary; exits non-zero
# when any failed. The soak is shortened (SOAK_MINUTES, default 5 here) unless you say otherwise;
# every other benchmark runs as `npm run bench -- <name>` would.
#   bash scripts/bench-all.sh                      all of them, in the order of bench/
#   bash scripts/bench-all.sh gateway-sse faults   these, in this order
set -uo pipefail
cd "$(dirname "$0")/.."
export SOAK_MINUTES="${SOAK_MINUTES:-5}"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for file in bench/*.bench.ts; do names+=("$(basename "$file" .bench.ts)"); done
fi
logs="${BENCH_LOG_DIR:-/tmp/studio-bench-all}"
mkdir -p "$logs"
failed=()
npm run --silent build >"$logs/build.log" 2>&1 || { echo "bench-all: the build failed (see $logs/build.log)"; exit 1; }
for name in "${names[@]}"; do
  started=$SECONDS
  echo "bench-all: $name ($(date +%T))"
  if bash scripts/node-runtime.sh node_modules/.bin/tsx --tsconfig tsconfig.bench.json bench/run.ts "$name" >"$logs/$name.log" 2>&1; then
    echo "bench-all: $name passed in $((SECONDS - started)) s"
  else
    failed+=("$name")
    echo "bench-all: $name FAILED in $((SECONDS - started)) s: $(grep -m1 "^bench $name failed:" "$logs/$name.log" || tail -n 1 "$logs/$name.log")"
  fi
done
echo "bench-all: $(( ${#names[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed${failed[*]:+ (${failed[*]})}; logs in $logs"
[ ${#failed[@]} -eq 0 ]
