#!/usr/bin/env bash
# The worker runs Debian's ffmpeg and ffprobe (one maintained build, security updates from
# Debian: docs/decisions.md), and Debian's pocketsphinx with its US English model for offline
# transcripts; the tests speak their scripts with Debian's espeak-ng. Install them when missing
# and we are allowed to; FFMPEG_PATH and FFPROBE_PATH point the worker at other ffmpeg binaries,
# POCKETSPHINX_PATH at another pocketsphinx.
set -euo pipefail
packages=()
# The face detector that frames clips on the speaker (worker/media/faces.py): Debian's OpenCV for
# Debian's python3, and its Haar cascades. Optional: without it clips keep the whole picture.
python=${FACE_DETECTOR_PYTHON:-/usr/bin/python3}
cascade=${FACE_CASCADE:-/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml}
if ! { [ -x "$python" ] && "$python" -c 'import cv2' 2>/dev/null && [ -f "$cascade" ]; }; then
  if [ -z "${FACE_DETECTOR_PYTHON:-}${FACE_CASCADE:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    packages+=(python3-opencv opencv-data)
  else
    echo "No face detector: install Debian's 'python3-opencv' and 'opencv-data' to frame clips on the speaker (clips keep the whole picture meanwhile)." >&2
  fi
fi
ffmpeg=${FFMPEG_PATH:-/usr/bin/ffmpeg}
ffprobe=${FFPROBE_PATH:-/usr/bin/ffprobe}
pocketsphinx=${POCKETSPHINX_PATH:-/usr/bin/pocketsphinx_continuous}
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
