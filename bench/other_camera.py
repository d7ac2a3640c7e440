"""The scenes of a set as another camera in another room would shoot them.

    .venv/bin/python bench/other_camera.py ../shared/data/set-cards-dev OUT [--camera webcam] [--seed 1]
    .venv/bin/python bench/bench_vision.py cards OUT

The owner enrolls with one camera and plays under another light (or swaps the camera): the
reader must not depend on either.  This copies ``enroll/`` unchanged and writes every scene of
``scenes/`` again through a made-up camera, one draw per scene:

* ``webcam``: a cheap USB webcam: the long side cut to 1280 pixels, a warm lamp (tungsten
  white balance), exposure and gamma of its own, a vignette, sensor noise, a slightly soft
  lens, JPEG 60-85;
* ``small``: the same at 640 pixels on the long side (cards a third as large);
* ``dim``: an evening table: under-exposed by half, a strong colour cast, heavy noise, JPEG;
* ``tilt``: the camera leaning 8-15 degrees (a perspective warp), otherwise as ``webcam``;
* ``haze``: a lamp's reflection or a hazy lens veiling the frame: 15-35% of white light added
  everywhere (blacks lifted, colours paled), otherwise as ``webcam``.
* ``phone``: a phone's own processing: daylight LEDs (a cool cast), shadows lifted by local
  tone mapping, colours made 20-45% more saturated, strong sharpening (halos round every
  edge), smoothing noise reduction, JPEG 88-95;
* ``focus``: the camera focused on the wrong plane: a disc blur 1.5-3.5 pixels across at
  1280, otherwise as ``webcam``;
* ``flicker``: mains LEDs under a rolling shutter: bands of brighter and darker rows (5-15%),
  a green or magenta tint, otherwise as ``webcam``;
* ``shadow``: a player leaning over the table: a shadow 35-60% deep over part of the frame,
  its edge hard or soft, otherwise as ``webcam``;
* ``framed``: the camera framed tighter than the table: each side of the frame moved in by
  0-30% of the frame, through the cards lying there (a card cut by the frame's edge, or out of
  view), otherwise as ``webcam``.  ``labels.json`` still names every card of the table: the
  figure that counts here is the wrong reads (a card cut in half read as a card of one symbol,
  the blank part of a card as a card); the cards out of view count as missed;
* ``turned``: the camera mounted a quarter turn round: each photo turned 90 degrees (a
  portrait frame landscape, a landscape one portrait), nothing else changed (the finder works
  at a set width, so the cards come to it at another scale);
* ``shaken``: a hand or the camera moving during the exposure: a blur along a line 3-9 pixels
  long (at 1280) at a random angle, otherwise as ``webcam``;
* ``mjpeg``: a webcam streaming MJPEG: JPEG quality 20-40 (blocks and ringing round every
  edge), otherwise as ``webcam``.

``labels.json`` is copied (the cards do not change), so ``bench/bench_vision.py cards OUT``
gives the figures under that camera.  Nothing here is tuned to the reader: the changes are
drawn from ranges a real camera and room give.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np
from counts import Parser
from tqdm import tqdm

SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
CAMERAS = ("webcam", "small", "dim", "tilt", "haze", "phone", "focus", "flicker", "shadow", "framed", "turned",
           "shaken", "mjpeg")


def _tilted(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The frame seen by a camera leaning 8-15 degrees about a random axis (a homography of
    a plane: one side of the table nearer, the other further)."""
    h, w = img.shape[:2]
    f = 1.1 * max(w, h)
    tilt = np.radians(rng.uniform(8, 15))
    axis = rng.uniform(0, 2 * np.pi)
    rx, ry = tilt * np.cos(axis), tilt * np.sin(axis)
    rot, _ = cv2.Rodrigues(np.array([rx, ry, 0.0]))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    hom = k @ rot @ np.linalg.inv(k)
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), hom)[0]
    # keep the whole table in view: fit the warped frame back into the same size
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    s = min(w / (x1 - x0), h / (y1 - y0))
    fit = np.array([[s, 0, -x0 * s + (w - s * (x1 - x0)) / 2], [0, s, -y0 * s + (h - s * (y1 - y0)) / 2],
                    [0, 0, 1.0]])
    return cv2.warpPerspective(img, fit @ hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _phone(lin: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone's processing of a frame (linear light): noise smoothed, shadows lifted by a
    local tone curve, colours pushed away from grey, edges sharpened with halos."""
    lin = cv2.bilateralFilter(np.clip(lin, 0, 1).astype(np.float32), 5, 0.05, 3)
    lum = lin.mean(axis=2)
    local = cv2.GaussianBlur(lum, (0, 0), 0.05 * max(lum.shape))
    lin = lin * (np.clip(local, 0.02, 1) ** -rng.uniform(0.15, 0.35))[..., None] * rng.uniform(0.7, 0.85)
    grey = lin.mean(axis=2, keepdims=True)
    lin = grey + (lin - grey) * rng.uniform(1.2, 1.45)
    blurred = cv2.GaussianBlur(lin, (0, 0), rng.uniform(1.5, 2.5))
    return lin + (lin - blurred) * rng.uniform(0.8, 1.5)


def _streak(length: float, angle: float) -> np.ndarray:
    """A blur kernel along a line ``length`` pixels long at ``angle`` (radians): the light of
    each point smeared over the path the camera moved during the exposure."""
    r = int(np.ceil(length / 2))
    k = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    for t in np.linspace(-length / 2, length / 2, max(2, int(4 * length))):
        k[int(round(r + t * np.sin(angle))), int(round(r + t * np.cos(angle)))] = 1.0
    return k / k.sum()


def reshoot(img: np.ndarray, camera: str, rng: np.random.Generator) -> np.ndarray:
    """``img`` (BGR) as ``camera`` would give it."""
    if camera == "turned":
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    if camera == "tilt":
        img = _tilted(img, rng)
    if camera == "framed":
        h, w = img.shape[:2]
        left, right, top, bottom = rng.uniform(0.0, 0.3, 4)
        img = np.ascontiguousarray(img[int(top * h):h - int(bottom * h), int(left * w):w - int(right * w)])
    long_side = {"small": 640, "phone": 1600}.get(camera, 1280)
    h, w = img.shape[:2]
    scale = min(1.0, long_side / max(h, w))
    if scale < 1.0:
        img = cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    h, w = img.shape[:2]
    lin = (img.astype(np.float32) / 255.0) ** 2.2
    if camera == "dim":
        cast = rng.uniform(0.6, 1.4, 3)
        exposure = rng.uniform(0.35, 0.55)
    elif camera == "phone":
        cool = rng.uniform(0.0, 0.15)  # daylight LEDs: blue up, red down
        cast = np.array([1 + 0.6 * cool, 1.0, 1 - cool]) * rng.uniform(0.95, 1.05, 3)
        exposure = rng.uniform(0.8, 1.2)
    else:
        warm = rng.uniform(0.1, 0.35)  # tungsten: red up, blue down (BGR order)
        cast = np.array([1 - warm, 1.0, 1 + 0.6 * warm]) * rng.uniform(0.93, 1.07, 3)
        exposure = rng.uniform(0.7, 1.35)
    if camera == "flicker":
        tint = rng.uniform(-0.12, 0.12)  # green (+) or magenta (-)
        cast = cast * np.array([1 - tint / 2, 1 + tint, 1 - tint / 2])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    light = 1 - rng.uniform(0.15, 0.4) * r2
    if camera == "flicker":
        period = rng.uniform(0.05, 0.25) * h
        light = light * (1 + rng.uniform(0.05, 0.15) * np.sin(2 * np.pi * yy / period + rng.uniform(0, 2 * np.pi)))
    if camera == "shadow":
        angle = rng.uniform(0, 2 * np.pi)
        side = ((xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle) - rng.uniform(-0.3, 0.3))
        soft = rng.uniform(0.005, 0.1)
        light = light * (1 - rng.uniform(0.35, 0.6) / (1 + np.exp(np.minimum(-side / soft, 80.0))))
    lin = lin * (cast * exposure)[None, None, :] * light[..., None]
    if camera == "haze":
        lin = lin + float(rng.uniform(0.15, 0.35)) * float(np.percentile(lin, 99))
    if camera == "focus":
        r = rng.uniform(0.75, 1.75) * w / 1280
        k = int(np.ceil(r)) * 2 + 1
        disc = (np.hypot(*np.mgrid[-(k // 2):k // 2 + 1, -(k // 2):k // 2 + 1]) <= r).astype(np.float32)
        lin = cv2.filter2D(lin, -1, disc / disc.sum())
    if camera == "shaken":
        lin = cv2.filter2D(lin, -1, _streak(rng.uniform(3, 9) * w / 1280, rng.uniform(0, np.pi)))
    lin = cv2.GaussianBlur(lin, (0, 0), float(rng.uniform(0.5, 1.2)))
    noise = rng.uniform(0.01, 0.025) if camera != "dim" else rng.uniform(0.03, 0.05)
    lin = lin + rng.normal(0, noise, lin.shape).astype(np.float32) * np.sqrt(np.clip(lin, 0.01, 1))
    gamma = rng.uniform(1.9, 2.5)
    quality = int(rng.integers(60, 86)) if camera != "mjpeg" else int(rng.integers(20, 41))
    if camera == "phone":
        lin, quality = _phone(lin, rng), int(rng.integers(88, 96))
    out = (np.clip(lin, 0, 1) ** (1 / gamma) * 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def main(argv: list[str] | None = None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a set: enroll/, scenes/, labels.json")
    ap.add_argument("out", type=Path)
    ap.add_argument("--camera", choices=CAMERAS, default="webcam")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    scenes = sorted(p for p in (args.folder / "scenes").iterdir() if p.suffix.lower() in SUFFIXES)
    if not scenes or not (args.folder / "labels.json").is_file():
        print(f"other_camera: {args.folder} has no scenes/ or labels.json", file=sys.stderr)
        return 2
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(args.folder / "enroll", args.out / "enroll")
    (args.out / "scenes").mkdir(parents=True)
    labels = json.loads((args.folder / "labels.json").read_text())
    renamed = {}
    for i, path in enumerate(tqdm(scenes, desc=f"{args.camera} camera", unit="scene", file=sys.stderr)):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            print(f"other_camera: cannot read {path}", file=sys.stderr)
            return 2
        rng = np.random.default_rng([args.seed, i])
        name = path.stem + ".jpg"
        cv2.imwrite(str(args.out / "scenes" / name), reshoot(img, args.camera, rng))
        renamed[name] = labels[path.name]
    (args.out / "labels.json").write_text(json.dumps(renamed, indent=1))
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
