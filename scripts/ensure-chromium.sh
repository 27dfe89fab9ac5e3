#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core (Playwright cannot download
# its own browser here). Install it when missing and we are allowed to.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-liberation >/dev/null
else
  echo "Chromium is missing: install Debian's 'chromium' package (sudo apt-get install chromium), or set CHROMIUM_PATH." >&2
  exit 1
fi
