#!/usr/bin/env bash
# `npm test`: every check and test layer. Starts its own local stack on the test ports
# (see .env.example) with its own data, so it never collides with a running `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

step() { printf '\n== %s\n' "$1"; }

step "browser for e2e tests"
bash scripts/ensure-chromium.sh

step "typecheck (tsc)"
npx tsc --noEmit -p .

step "typecheck Edge Functions (deno check)"
npx tsx scripts/deno-check.ts

step "lint (eslint)"
npx eslint . --max-warnings=0

step "tests (vitest: unit, then the stack: db, contract, functions, e2e)"
mkdir -p test-results
rm -f test-results/vitest.json
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?

echo "npm test finished in $(( $(date +%s) - started )) s"
# The plain closing line CI reads: 'N passed, N failed' (files that failed to load count too).
npx tsx scripts/test-summary.ts test-results/vitest.json || status=1
exit "$status"
