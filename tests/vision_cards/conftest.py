"""What the card tests share: the independent card renderer, a set of it enrolled and read
through the command line, and the overlap of two quads."""

import json

import cv2
import numpy as np
import pytest

from farmbox.firmware.cli import main
from tests.bench_scripts import bench_script


@pytest.fixture(scope="module")
def holdout():
    """bench/holdout_cards.py, the second, independent card renderer."""
    return bench_script("holdout_cards")


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return float(inter) / (cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - float(inter) + 1e-9)


def learned_at_the_cards_shape(holdout, tmp_path, seed, style, kind, capsys):
    """The second renderer's set (``seed``, ``style``, ``kind`` of table; its 48 enrollment
    photos and first 2 tables) enrolled through the CLI, every photo kept and the deck learned
    with a card size and within 0.02 of the cards' own side ratio; each table's (name, labels)
    and the ids read there."""
    folder = tmp_path / f"{style}-{kind}-{seed}"
    labels = holdout.write_set(folder, seed, style, kind, tables=2, shots=2, progress=False)
    truth = json.loads((folder / "corners.json").read_text())
    from farmbox.vision.cards.find import side_ratio
    own = float(np.median([side_ratio(np.float32(t[0]["corners"])) for p, t in truth.items() if p.startswith("enroll/")]))
    model = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "cards", str(folder / "enroll"), "--model", str(model)]) == 0
    out, _ = capsys.readouterr()
    assert "24 cards from 48 images" in out
    from farmbox.vision.cards import load_model
    learned = load_model(model)
    assert abs(learned.ratio - own) <= 0.02 and learned.card_share > 0, (learned.ratio, own, learned.card_share)
    tables = sorted((folder / "scenes").glob("*.jpg"))
    assert main(["vision", "read", "cards", "--model", str(model), *map(str, tables), "--json"]) == 0
    reads = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    return [((t.name, labels[t.name]), [c["id"] for c in r["cards"]]) for t, r in zip(tables, reads)]
