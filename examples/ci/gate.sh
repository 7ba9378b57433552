#!/usr/bin/env bash
# The V8 Lens regression gate for a service: profile it under load on the base and on the change,
# ROUNDS rounds each, interleaved (base, change, base, change, …: a machine that gets busier weighs
# on both sides alike), then hold the change to RULES. Exit 0: pass; 1: a rule broken; 2: usage.
#
#   examples/ci/gate.sh <base checkout> <change checkout> [out folder]
#
# Settings (environment): TARGET, the script to run in each checkout (default: the demo service,
# examples/http-service/server.js; it must print its http://127.0.0.1:<port> URL); ROUNDS (4: the
# fewest at which the gate's test can reach p < 0.05); WARMUP and DURATION in seconds (2, 10);
# RULES (below); V8_LENS, how to run the CLI (default: npx --yes v8-lens; a checkout of V8 Lens:
# "node /path/to/v8-lens/dist/cli.js"). In GitHub Actions the table lands in the job's summary.
set -euo pipefail

BASE=$(cd "${1:?usage: gate.sh <base checkout> <change checkout> [out folder]}" && pwd)
CHANGE=$(cd "${2:?usage: gate.sh <base checkout> <change checkout> [out folder]}" && pwd)
OUT=$(mkdir -p "${3:-v8-lens-gate}" && cd "${3:-v8-lens-gate}" && pwd)
TARGET=${TARGET:-examples/http-service/server.js}
ROUNDS=${ROUNDS:-4}
WARMUP=${WARMUP:-2}
DURATION=${DURATION:-10}
RULES=${RULES:-cpu.self:+10%,gc.msPer1k:+15%,alloc.bytesPerRequest:+10%,load.rps:-5%}
read -r -a V8_LENS <<< "${V8_LENS:-npx --yes v8-lens}"

for round in $(seq 1 "$ROUNDS"); do
  for side in base change; do
    if [ "$side" = base ]; then dir=$BASE; else dir=$CHANGE; fi
    echo "gate: round $round/$ROUNDS, $side" >&2
    (cd "$dir" && "${V8_LENS[@]}" profile --preset cpu-gc-alloc --url auto --warmup "$WARMUP" --duration "$DURATION" \
      --out "$OUT/$side/r$round" -- "$TARGET" > /dev/null)
  done
done

"${V8_LENS[@]}" compare "$OUT/base" "$OUT/change" --fail-on "$RULES" --summary "${GITHUB_STEP_SUMMARY:-$OUT/summary.md}" --json > "$OUT/gate.json"
