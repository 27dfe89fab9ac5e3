#!/usr/bin/env bash
# The worker runs Debian's ffmpeg and ffprobe (one maintained build, security updates from
# Debian: docs/decisions.md). Install them when missing and we are allowed to; FFMPEG_PATH and
# FFPROBE_PATH point the worker at other binaries.
set -euo pipefail
# The face detector that frames clips on the speaker (worker/media/faces.py): Debian's OpenCV for
# Debian's python3, and its Haar cascades. Optional: without it clips keep the whole picture.
python=${FACE_DETECTOR_PYTHON:-/usr/bin/python3}
cascade=${FACE_CASCADE:-/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml}
if ! { [ -x "$python" ] && "$python" -c 'import cv2' 2>/dev/null && [ -f "$cascade" ]; }; then
  if [ -z "${FACE_DETECTOR_PYTHON:-}${FACE_CASCADE:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's OpenCV (python3-opencv, opencv-data) for framing clips on the speaker..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-opencv opencv-data >/dev/null
  else
    echo "No face detector: install Debian's 'python3-opencv' and 'opencv-data' to frame clips on the speaker (clips keep the whole picture meanwhile)." >&2
  fi
fi
ffmpeg=${FFMPEG_PATH:-/usr/bin/ffmpeg}
ffprobe=${FFPROBE_PATH:-/usr/bin/ffprobe}
if [ -x "$ffmpeg" ] && [ -x "$ffprobe" ]; then exit 0; fi
if [ -n "${FFMPEG_PATH:-}${FFPROBE_PATH:-}" ]; then
  echo "ffmpeg is missing: FFMPEG_PATH ($ffmpeg) and FFPROBE_PATH ($ffprobe) must both name executable files." >&2
  exit 1
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ffmpeg for the processing worker..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null
else
  echo "ffmpeg is missing: install Debian's 'ffmpeg' package (sudo apt-get install ffmpeg), or set FFMPEG_PATH and FFPROBE_PATH." >&2
  exit 1
fi
