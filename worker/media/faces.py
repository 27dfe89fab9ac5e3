"""Faces in sampled frames, for framing clips on the speaker (worker/media/speaker-framing.ts).

Reads raw 8-bit grey frames (width x height each, back to back) from files the worker's ffmpeg
wrote (one per clip: one process for all, OpenCV takes a while to load), finds frontal faces
with OpenCV's Haar cascade (Debian: python3-opencv, opencv-data), and prints JSON:
{"clips": [[[[x, y, w, h, motion], ...], ...], ...]}: per clip, per frame, the faces. `motion` is the
mean absolute change of the lower half of the face box (the mouth) since the previous frame: the
face that moves its mouth most is taken to be the one talking.

usage: faces.py WIDTH HEIGHT CASCADE FRAMES...
"""
import json
import sys

import cv2
import numpy as np


def faces_in(path: str, width: int, height: int, cascade: cv2.CascadeClassifier) -> list:
    frames = np.fromfile(path, dtype=np.uint8)
    frames = frames[: (frames.size // (width * height)) * width * height].reshape(-1, height, width)
    # A speaker fills more than an eighth of the height; smaller windows cost most of the time.
    smallest = max(20, height // 8)
    out = []
    previous = None
    for frame in frames:
        found = cascade.detectMultiScale(frame, scaleFactor=1.15, minNeighbors=5, minSize=(smallest, smallest))
        faces = []
        for (x, y, w, h) in (found if len(found) else []):
            motion = 0.0
            if previous is not None:
                mouth = (slice(y + h // 2, y + h), slice(x, x + w))
                motion = float(np.mean(cv2.absdiff(frame[mouth], previous[mouth])))
            faces.append([int(x), int(y), int(w), int(h), round(motion, 3)])
        out.append(faces)
        previous = frame
    return out


def main() -> None:
    width, height, cascade_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    cascade = cv2.CascadeClassifier(cascade_path)
    if cascade.empty():
        raise SystemExit(f"cannot load the face cascade {cascade_path}")
    json.dump({"clips": [faces_in(path, width, height, cascade) for path in sys.argv[4:]]}, sys.stdout)


if __name__ == "__main__":
    main()
