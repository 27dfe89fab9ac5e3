#!/usr/bin/env bash
# The browser tests drive Debian's Chromium headless shell through playwright-core (Playwright
# cannot download its own browser here); the benches' Lighthouse and uploads run the full
# Chromium. Install both when missing and we are allowed to.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium and chromium-headless-shell for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-headless-shell fonts-liberation >/dev/null
elif [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ]; then
  # The tests fall back to the full browser (tests/e2e/support/browser.ts): slower, same checks.
  echo "chromium-headless-shell is missing: the browser tests run in the full Chromium (sudo apt-get install chromium-headless-shell for the faster one)." >&2
else
  echo "Chromium is missing: install Debian's 'chromium' and 'chromium-headless-shell' packages (sudo apt-get install chromium chromium-headless-shell), or set CHROMIUM_PATH." >&2
  exit 1
fi
