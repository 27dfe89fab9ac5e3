#!/usr/bin/env bash
# The worker runs Debian's ffmpeg and ffprobe (one maintained build, security updates from
# Debian: docs/decisions.md), and Debian's pocketsphinx with its US English model for offline
# transcripts; the tests speak their scripts with Debian's espeak-ng. Install them when missing
# and we are allowed to; FFMPEG_PATH and FFPROBE_PATH point the worker at other ffmpeg binaries,
# POCKETSPHINX_PATH at another pocketsphinx.
set -euo pipefail
ffmpeg=${FFMPEG_PATH:-/usr/bin/ffmpeg}
ffprobe=${FFPROBE_PATH:-/usr/bin/ffprobe}
pocketsphinx=${POCKETSPHINX_PATH:-/usr/bin/pocketsphinx_continuous}
packages=()
if ! { [ -x "$ffmpeg" ] && [ -x "$ffprobe" ]; }; then
  if [ -n "${FFMPEG_PATH:-}${FFPROBE_PATH:-}" ]; then
    echo "ffmpeg is missing: FFMPEG_PATH ($ffmpeg) and FFPROBE_PATH ($ffprobe) must both name executable files." >&2
    exit 1
  fi
  packages+=(ffmpeg)
fi
[ -x "$pocketsphinx" ] && [ -d /usr/share/pocketsphinx/model/en-us ] || packages+=(pocketsphinx pocketsphinx-en-us)
command -v espeak-ng >/dev/null 2>&1 || packages+=(espeak-ng)
if [ ${#packages[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${packages[*]} for the processing worker and its tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
else
  echo "Missing: install Debian's ${packages[*]} (sudo apt-get install ${packages[*]}), or set FFMPEG_PATH and FFPROBE_PATH (and POCKETSPHINX_PATH)." >&2
  exit 1
fi
