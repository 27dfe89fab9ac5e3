"""Faces in sampled frames, for framing clips on the speaker (worker/media/speaker-framing.ts).

Runs as one long-lived process per worker (loading OpenCV costs more than the detection, and a
worker frames one clip per piece): loads the cascade (Debian: python3-opencv, opencv-data), then
reads one request per line on stdin, JSON {"width": W, "height": H, "files": [...]}, each file raw
8-bit grey frames (W x H each, back to back) the worker's ffmpeg wrote, and answers one line per
request on stdout: {"clips": [[[[x, y, w, h, motion], ...], ...], ...]} (per file, per frame, the
faces), or {"error": "..."} when a request cannot be read. `motion` is the mean absolute change of
the lower half of the face box (the mouth) since the previous frame: the face that moves its
mouth most is taken to be the one talking. Ends when stdin closes (the worker has gone).

usage: faces.py CASCADE
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
    cascade_path = sys.argv[1]
    cascade = cv2.CascadeClassifier(cascade_path)
    if cascade.empty():
        raise SystemExit(f"cannot load the face cascade {cascade_path}")
    for line in sys.stdin:
        try:
            request = json.loads(line)
            width, height = int(request["width"]), int(request["height"])
            answer = {"clips": [faces_in(path, width, height, cascade) for path in request["files"]]}
        except Exception as error:  # noqa: BLE001 - any unreadable request is answered, the process serves on
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
