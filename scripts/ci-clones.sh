#!/usr/bin/env bash
# Runs `.ci/run` in N fresh clones of this repository's HEAD, one after another, as CI would (a
# clean clone each time), and reports each result with its time. A flaky test shows up here as a
# red run among green ones: it is a race to find, not a run to retry.
#   bash scripts/ci-clones.sh 10            # logs in ${TMPDIR:-/tmp}/studio-ci-clones/<n>.log
# Nothing else may use the test ports or the shared test broker meanwhile (docs/testing.md).
set -uo pipefail
count="${1:-3}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/studio-ci-clones"
# One commit for every run, even if the repository moves on meanwhile.
commit="$(git -C "$repo" rev-parse --short HEAD)"
mkdir -p "$work"
green=0
for n in $(seq 1 "$count"); do
  rm -rf "$work/clone"
  git clone -q "$repo" "$work/clone" && git -C "$work/clone" checkout -q "$commit"
  started=$(date +%s)
  if (cd "$work/clone" && CI=true bash .ci/run >"$work/$n.log" 2>&1); then
    result=green
    green=$((green + 1))
  else
    result="RED (log: $work/$n.log)"
  fi
  echo "run $n of $count at $commit: $result in $(($(date +%s) - started)) s"
done
echo "$green of $count green"
[ "$green" -eq "$count" ]
