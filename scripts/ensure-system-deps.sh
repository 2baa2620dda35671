#!/usr/bin/env bash
# Make sure the Debian packages the tests and the benchmark need are installed:
# Chromium + fonts (Playwright journeys), PostgreSQL 15 (server tests, second
# pass) and wrk (npm run bench). A fast no-op when everything is present.
set -euo pipefail

PACKAGES=(chromium fonts-noto-core fontconfig postgresql wrk ffmpeg espeak-ng)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-system-deps: missing Debian packages: ${missing[*]}" >&2
  echo "Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

echo "ensure-system-deps: installing ${missing[*]} ..."
log="$(mktemp /tmp/ensure-system-deps.XXXXXX.log)"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >"$log" 2>&1 ||
  ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
  echo "ensure-system-deps: apt-get failed; last lines of $log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
rm -f "$log"
echo "ensure-system-deps: installed ${missing[*]}"
