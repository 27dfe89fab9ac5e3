#!/usr/bin/env bash
# `npm test`: every check and test layer. Starts its own local stack on the test ports
# (see .env.example) with its own data, so it never collides with a running `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

step() { printf '\n== %s\n' "$1"; }

step "browser for e2e tests"
bash scripts/ensure-chromium.sh

# The three static checks are single-threaded: run side by side, then report each in turn.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
npx tsc --noEmit -p . >"$checks/tsc" 2>&1 & tsc_pid=$!
npx tsx scripts/deno-check.ts >"$checks/deno" 2>&1 & deno_pid=$!
npx eslint . --max-warnings=0 >"$checks/eslint" 2>&1 & eslint_pid=$!
checks_failed=0
report() { # title, pid, output file
  step "$1"
  local rc=0
  wait "$2" || rc=$?
  cat "$3"
  if [ "$rc" -ne 0 ]; then echo "$1: failed (exit $rc)"; checks_failed=1; fi
}
report "typecheck (tsc)" "$tsc_pid" "$checks/tsc"
report "typecheck Edge Functions (deno check)" "$deno_pid" "$checks/deno"
report "lint (eslint)" "$eslint_pid" "$checks/eslint"
if [ "$checks_failed" -ne 0 ]; then
  echo "npm test finished in $(( $(date +%s) - started )) s"
  echo "0 passed, 1 failed"
  exit 1
fi

step "tests (vitest: unit, then the stack: db, contract, functions, e2e)"
mkdir -p test-results
rm -f test-results/vitest.json
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?

echo "npm test finished in $(( $(date +%s) - started )) s"
# The plain closing line CI reads: 'N passed, N failed' (files that failed to load count too).
npx tsx scripts/test-summary.ts test-results/vitest.json || status=1
exit "$status"
