"""Figures of a reader on any folder in the enroll/ + scenes/ + labels.json layout.

    .venv/bin/python bench/bench_vision.py cards ../shared/data/set-cards-dev
    .venv/bin/python bench/bench_vision.py dice DIR [--show 20]
    .venv/bin/python bench/bench_vision.py colour-dice DIR

The folder holds ``enroll/`` (what ``farmbox vision enroll KIND`` learns from), ``scenes/*``
(the images to read) and ``labels.json`` (scene file name -> the truth):

* cards: a list of card ids (a multiset: order free);
* dice: ``[green_face, red_face]``, or ``null`` / ``{"faces": null, "reason": "..."}`` for a
  scene that must be refused (a reason there is the one expected);
* colour-dice: ``{"white": colour, "black": colour}``.  When the folder also holds
  ``enroll-cards/`` (photos of each card alone on the table, as ``farmbox vision enroll cards``
  takes them), the deck is enrolled as well and the dice are read with ``--cards``: the cards
  read in a frame are left out of its dice search, as the box does in Fun Farm (the time per
  frame then includes reading the cards).

It drives the command line itself, in this process: ``farmbox vision enroll KIND DIR/enroll
--model M`` then one ``farmbox vision read KIND --model M SCENE... --json`` over every scene
(the same code and the same model file as the command).  Each JSON line is timed as it is
printed: the time per frame is the gap between consecutive lines (the first frame, which pays
for loading the model, is left out of the median).  Times are wall time of one process with
OpenCV and BLAS limited to one thread.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np
from counts import Parser, at_least

from farmbox.firmware.cli import main as farmbox

SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class TimedLines(io.TextIOBase):
    """A stdout that keeps every printed line with the moment it was completed."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []
        self._part = ""

    def write(self, s: str) -> int:  # type: ignore[override]
        self._part += s
        while "\n" in self._part:
            line, self._part = self._part.split("\n", 1)
            self.lines.append((time.perf_counter(), line))
        return len(s)


def run(argv: list[str]) -> tuple[int, TimedLines, float]:
    """``farmbox ARGV`` in this process: exit status, its timed output, start time."""
    out = TimedLines()
    t0 = time.perf_counter()
    with redirect_stdout(out):
        code = farmbox(argv)
    return code, out, t0


def _tokens(name: str) -> set[str]:
    return set(name.replace("_", "-").split("-"))


def pair_leftovers(truth: list[str], got: list[str]) -> list[tuple[str, str]]:
    """Pair cards left over after the exact matches, most alike names first (for the
    confusion table only: the counts do not depend on it)."""
    pairs, got = [], list(got)
    for t in truth:
        if not got:
            break
        best = max(range(len(got)), key=lambda i: len(_tokens(t) & _tokens(got[i])))
        pairs.append((t, got.pop(best)))
    return pairs


def score_cards(labels: dict, results: dict) -> tuple[Counter, Counter, list[str]]:
    """Counts (cards, found, exact, wrong, unsure, extra), confusions, per-image notes."""
    c: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    notes = []
    for name, truth in labels.items():
        cards = results.get(name, {}).get("cards", [])
        want = Counter(truth)
        ids = Counter(card["id"] for card in cards if card["id"] is not None)
        unsure = sum(1 for card in cards if card["id"] is None)
        exact = sum((want & ids).values())
        wrong = sum((ids - want).values())
        c["cards"] += len(truth)
        c["found"] += min(len(cards), len(truth))
        c["extra"] += max(0, len(cards) - len(truth))
        c["exact"] += exact
        c["wrong"] += wrong
        c["unsure"] += unsure
        c["missed"] += max(0, len(truth) - len(cards))
        for t, g in pair_leftovers(list((want - ids).elements()), list((ids - want).elements())):
            confusion[(t, g)] += 1
        if wrong or unsure or len(cards) != len(truth):
            notes.append(f"{name}: {len(cards)}/{len(truth)} found, {exact} exact, {wrong} wrong, "
                         f"{unsure} unsure")
    return c, confusion, notes


def score_dice(labels: dict, results: dict) -> tuple[Counter, Counter, Counter, list[str]]:
    """Counts, refusal reasons, confusions (per die) and notes for dice scenes."""
    c: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    notes = []
    for name, truth in labels.items():
        r = results.get(name, {})
        faces, reason = r.get("faces"), r.get("reason", "?")
        if isinstance(truth, dict):
            want, want_reason = truth.get("faces"), truth.get("reason")
        else:
            want, want_reason = truth, None
        if want is None:
            c["refuse_scenes"] += 1
            if faces is None:
                c["refused_right"] += 1
                if want_reason and reason != want_reason:
                    c["refused_other_reason"] += 1
                    reasons[f"{reason} (expected {want_reason})"] += 1
            else:
                c["read_should_refuse"] += 1
                notes.append(f"{name}: read {faces}, expected a refusal ({want_reason or 'any'})")
            continue
        c["scenes"] += 1
        if faces is None:
            c["unsure"] += 1
            reasons[reason] += 1
            notes.append(f"{name}: refused ({reason}), truth {want}")
        elif list(faces) == list(want):
            c["exact"] += 1
        else:
            c["wrong"] += 1
            for t, g in zip(want, faces):
                if t != g:
                    confusion[(t, g)] += 1
            notes.append(f"{name}: read {faces}, truth {want} (confidence {r.get('confidence')})")
    return c, reasons, confusion, notes


def score_colour_dice(labels: dict, results: dict) -> tuple[Counter, Counter, Counter, list[str]]:
    """Counts per die, reasons, confusions and notes for colour-dice scenes."""
    c: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    notes = []
    for name, truth in labels.items():
        r = results.get(name, {})
        got = r.get("dice", {})
        c["scenes"] += 1
        ok = True
        for die, colour in truth.items():
            c["dice"] += 1
            g = got.get(die)
            if g is None:
                c["unsure"] += 1
                ok = False
            elif g == colour:
                c["exact"] += 1
            else:
                c["wrong"] += 1
                ok = False
                confusion[(f"{die}:{colour}", f"{die}:{g}")] += 1
        if r.get("reason"):
            for part in str(r["reason"]).split("; "):
                reasons[part.split(": ", 1)[-1]] += 1
        c["rolls_exact"] += ok
        if not ok:
            notes.append(f"{name}: read {got}, truth {truth} ({r.get('reason', '')})")
    return c, reasons, confusion, notes


def _label_problem(kind: str, truth: object) -> str | None:
    """What is wrong with one scene's ``truth`` for ``kind`` (None: nothing)."""
    if kind == "cards":
        ok = isinstance(truth, list) and all(isinstance(t, str) for t in truth)
        return None if ok else "not a list of card ids"
    if kind == "dice":
        if isinstance(truth, dict):
            truth = truth.get("faces", "?") if set(truth) <= {"faces", "reason"} else "?"
        ok = truth is None or (isinstance(truth, list) and len(truth) == 2 and all(isinstance(t, str) for t in truth))
        return None if ok else 'not [green_face, red_face], null or {"faces": null, "reason": ...}'
    ok = isinstance(truth, dict) and bool(truth) and all(isinstance(k, str) and isinstance(v, str) for k, v in truth.items())
    return None if ok else 'not {"white": colour, "black": colour}'


def read_layout(kind: str, folder: Path) -> dict:
    """``folder``'s labels (``labels.json``), checked against the layout the module tells:
    a ``ValueError`` naming the first problem."""
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder")
    for part in ("enroll", "scenes"):
        if not (folder / part).is_dir():
            raise ValueError(f"{folder}: no {part}/ folder")
    try:
        labels = json.loads((folder / "labels.json").read_text())
    except FileNotFoundError:
        raise ValueError(f"{folder}: no labels.json") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{folder / 'labels.json'}: not readable JSON ({e})") from None
    if not isinstance(labels, dict) or not labels:
        raise ValueError(f"{folder / 'labels.json'}: not an object of scene name -> truth")
    for name, truth in labels.items():
        problem = _label_problem(kind, truth)
        if problem:
            raise ValueError(f"{folder / 'labels.json'}: {name}: {problem} for {kind}")
    return labels


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def main(argv: list[str] | None = None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("cards", "dice", "colour-dice"))
    ap.add_argument("folder", type=Path)
    ap.add_argument("--show", type=at_least(0), default=15, help="notes and confusions to print (default 15)")
    ap.add_argument("--model", type=Path, default=None, help="keep the model file here")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        labels = read_layout(args.kind, args.folder)
    except ValueError as e:
        print(f"bench_vision: {e}", file=sys.stderr)
        return 2
    scenes = sorted(p for p in (args.folder / "scenes").iterdir()
                    if p.suffix.lower() in SUFFIXES and p.name in labels)
    missing = sorted(set(labels) - {p.name for p in scenes})
    if missing:
        print(f"labels without a scene: {', '.join(missing[:5])}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model or Path(tmp) / "model.npz"
        t0 = time.perf_counter()
        code, out, _ = run(["vision", "enroll", args.kind, str(args.folder / "enroll"), "--model", str(model)])
        enroll_s = time.perf_counter() - t0
        if code:
            print(f"enrollment failed (exit {code})", file=sys.stderr)
            return code
        for _, line in out.lines:
            print(f"enroll: {line}")
        extra: list[str] = []
        if args.kind == "colour-dice" and (args.folder / "enroll-cards").is_dir():
            deck = Path(tmp) / "cards.npz"
            code, out, _ = run(["vision", "enroll", "cards", str(args.folder / "enroll-cards"),
                                "--model", str(deck)])
            if code:
                print(f"card enrollment failed (exit {code})", file=sys.stderr)
                return code
            print(f"enroll cards: {out.lines[-1][1] if out.lines else ''}; the dice read with --cards")
            extra = ["--cards", str(deck)]
        code, out, start = run(["vision", "read", args.kind, "--model", str(model), "--json",
                                *extra, *map(str, scenes)])
        if code:
            print(f"reading failed (exit {code})", file=sys.stderr)
            return code
    results, gaps, last = {}, [], start
    for t, line in out.lines:
        obj = json.loads(line)
        results[Path(obj["image"]).name] = obj
        gaps.append(1000 * (t - last))
        last = t
    frames = np.array(gaps[1:] or gaps)
    labels = {p.name: labels[p.name] for p in scenes}
    print(f"{args.kind} on {args.folder}: {len(scenes)} scenes; enrollment {enroll_s:.1f} s")
    if args.kind == "cards":
        c, confusion, notes = score_cards(labels, results)
        n = c["cards"]
        print(f"cards {n}: found {c['found']} ({pct(c['found'], n)}), exact {c['exact']} "
              f"({pct(c['exact'], n)}), wrong {c['wrong']} ({pct(c['wrong'], n)}), unsure {c['unsure']} "
              f"({pct(c['unsure'], n)}), missed {c['missed']}, extra finds {c['extra']}")
        reasons: Counter[str] = Counter()
    elif args.kind == "dice":
        c, reasons, confusion, notes = score_dice(labels, results)
        n = c["scenes"]
        print(f"readable scenes {n}: exact {c['exact']} ({pct(c['exact'], n)}), wrong {c['wrong']} "
              f"({pct(c['wrong'], n)}), unsure {c['unsure']} ({pct(c['unsure'], n)})")
        if c["refuse_scenes"]:
            print(f"scenes to refuse {c['refuse_scenes']}: refused {c['refused_right']} "
                  f"(other reason {c['refused_other_reason']}), read anyway {c['read_should_refuse']}")
    else:
        c, reasons, confusion, notes = score_colour_dice(labels, results)
        n = c["dice"]
        print(f"dice {n} in {c['scenes']} scenes: exact {c['exact']} ({pct(c['exact'], n)}), wrong "
              f"{c['wrong']} ({pct(c['wrong'], n)}), unsure {c['unsure']} ({pct(c['unsure'], n)}); "
              f"rolls exact {c['rolls_exact']}/{c['scenes']}")
    if reasons:
        print("refusal reasons: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    if confusion:
        print("confusions (truth -> read):")
        for (t, g), k in confusion.most_common(args.show):
            print(f"  {k:3d}  {t} -> {g}")
    print(f"ms per frame: median {np.median(frames):.1f}, mean {frames.mean():.1f}, "
          f"p90 {np.percentile(frames, 90):.1f} (first frame {gaps[0]:.0f} incl. model load)")
    for note in notes[:args.show]:
        print(f"  {note}")
    if len(notes) > args.show:
        print(f"  ... {len(notes) - args.show} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
