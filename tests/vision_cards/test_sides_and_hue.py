"""Two things that make the card reader hold on frames it did not draw itself: a card's
outline must run along edges of the image (not round a table's noise), and the colours of a
card's small marks are described by their hue, which no lamp's white balance changes."""

import json
from pathlib import Path

import cv2
import numpy as np

from farmbox.vision.cards import find as F
from farmbox.vision.cards.learn import HUE_BINS, HUE_GRID, _hue_grid, paper_balanced
from farmbox.vision.cards.read import card_in

FELT = Path(__file__).parent / "data" / "felt-photo"


def _overlap(a: np.ndarray, b: np.ndarray, shape: tuple[int, int]) -> float:
    ma = np.zeros(shape, np.uint8)
    mb = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(ma, np.round(a).astype(np.int32), 1)
    cv2.fillConvexPoly(mb, np.round(b).astype(np.int32), 1)
    return float((ma & mb).sum()) / float((ma | mb).sum())


def _felt() -> tuple[np.ndarray, np.ndarray]:
    image = cv2.imread(str(FELT / "cow-2.jpg"))
    assert image is not None
    truth = np.array(json.loads((FELT / "corners.json").read_text())["cow-2.jpg"], np.float32)
    return image, truth


def test_a_card_photographed_on_noisy_felt_is_learned_from_its_own_outline():
    """Before, the outline bent round the felt's noise was the largest and the card was
    learned from the whole frame (overlap 0.03)."""
    image, truth = _felt()
    assert _overlap(card_in(image), truth, image.shape[:2]) > 0.9


def _work_gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The gradients find_cards works on, and its scale."""
    h, w = image.shape[:2]
    scale = min(1.0, F.WORK_W / w)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    gx, gy = cv2.spatialGradient(cv2.GaussianBlur(gray, (3, 3), 0))
    return gx, gy, scale


def test_a_cards_sides_run_along_edges_and_an_outline_off_the_card_does_not():
    image, truth = _felt()
    gx, gy, scale = _work_gradients(image)
    card = F.order_corners(truth * scale)
    assert F._sides_seen(card, gx, gy)
    # the same card with two sides moved out into the felt (as the outline round the noise was)
    centre = card.mean(axis=0)
    off = card.copy()
    for i in (0, 1):
        off[i] = card[i] + 0.35 * (card[i] - centre)
    assert not F._sides_seen(F.order_corners(off), gx, gy)
    # and shrunk into the card's own face: its sides cross paper and art, no edge
    assert not F._sides_seen(F.order_corners(centre + 0.6 * (card - centre)), gx, gy)


def _card(mark_bgr: tuple[int, int, int]) -> np.ndarray:
    """A made-up card: cream paper, a grey animal, a blue title band and one small coloured
    diamond in a white square (the size of a Fun Farm card's die at the feature size)."""
    card = np.full((120, 80, 3), (222, 234, 240), np.uint8)
    cv2.rectangle(card, (10, 6), (70, 18), (170, 90, 40), -1)
    cv2.ellipse(card, (40, 60), (16, 10), 0, 0, 360, (120, 130, 140), -1)
    cv2.rectangle(card, (48, 92), (60, 104), (250, 250, 250), -1)
    diamond = np.array([[54, 93], [59, 98], [54, 103], [49, 98]], np.int32)
    cv2.fillConvexPoly(card, diamond, mark_bgr)
    return card


def _lamp(card: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(card.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def test_the_hue_of_a_small_mark_tells_yellow_from_orange_under_any_lamp():
    """The two dice on a Fun Farm card are a few pixels each: yellow and orange, or blue and
    purple, are what tell two cards of one animal apart."""
    yellow, orange = _card((40, 222, 250)), _card((22, 138, 244))
    blue, purple = _card((200, 90, 30)), _card((160, 52, 128))

    def hue(card: np.ndarray) -> np.ndarray:
        h = _hue_grid(paper_balanced(card))
        assert h.shape == (HUE_GRID[0] * HUE_GRID[1] * HUE_BINS,)
        return h

    for a, b in ((yellow, orange), (blue, purple)):
        apart = float(np.linalg.norm(hue(a) - hue(b)))
        for gains in ((0.62, 0.78, 1.0), (1.0, 0.85, 0.6), (0.5, 0.5, 0.5)):
            # a warm lamp, a cold one, a dim room (none clipping the paper): the same card
            # stays near itself
            assert float(np.linalg.norm(hue(_lamp(a, gains)) - hue(a))) < 0.35 * apart
    # the mark lies in the card's bottom half: the top half holds the title band's hue alone
    # (in the same proportions), the bottom half the mark's
    ty, by = hue(yellow).reshape(HUE_GRID[1], HUE_GRID[0] * HUE_BINS)
    to, bo = hue(orange).reshape(HUE_GRID[1], HUE_GRID[0] * HUE_BINS)
    assert float(ty @ to) / float(np.linalg.norm(ty) * np.linalg.norm(to)) > 0.999
    assert float(by @ bo) / float(np.linalg.norm(by) * np.linalg.norm(bo)) < 0.9
