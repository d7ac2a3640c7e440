"""Cards with white borders on a cloth of white and coloured stripes, on the independent card
renderer (bench/holdout_cards.py)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from farmbox.vision.cards import FindOptions, find_cards
from farmbox.vision.cards.find import PART_OF_CARD, order_corners
from tests.vision_cards.conftest import quad_iou


def _lay_apart(holdout, box, cards, rng):
    """``cards`` lying apart, turned any way, wholly in view."""
    h, w = box.ground.shape[:2]
    for _ in range(200):
        placed = []
        for card in cards:
            g = box.ground[int(rng.uniform(0.15, 0.85) * h), int(rng.uniform(0.15, 0.85) * w)]
            placed.append(holdout.Placed(card, float(g[0]), float(g[1]), float(rng.uniform(0, 2 * np.pi)),
                                         np.array([0.0, 0.0, 1.0])))
        if all(box.in_view(p, 3.0) for p in placed) and all(
                holdout.apart(a, b, 1.0) for i, a in enumerate(placed) for b in placed[i + 1:]):
            return placed
    raise AssertionError("could not lay the cards")


def _striped_tables(holdout, deck, step: int, count: int, tail: int = 58):
    """Six tables of ``count`` cards lying apart on the striped box (seed 21; ``tail``: the
    tables' seed), the k-th table's the deck's cards from ``step`` k on: (cards placed, image,
    each card's corners) for each."""
    box = holdout.Box.from_seed(21, "flat", "striped", deck)
    rng = np.random.default_rng([21, tail])
    for k in range(6):
        placed = _lay_apart(holdout, box, [deck[(step * k + i) % len(deck)] for i in range(count)], rng)
        image = box.render(placed, rng)
        yield placed, image, [np.float32(box.project(p.corners())) for p in placed]


@pytest.mark.parametrize("seed,least", [(21, 17), (26, 20)])
def test_cards_on_white_stripes_are_found_whole(holdout, seed, least):
    """A card's white border lying along a white stripe leaves one side with only a faint line
    (the side test misses it), and the card's art panel was found alone instead.  Two things
    mend it, where the enrolled card size is known: an art panel found alone is no card when
    telling a card's size (else the whole cards looked twice a card and were dropped as
    pairs), and an outline the edge map closed round at full size, of a card's shape and
    size, seen on three sides, is a card where nothing else was found.  Of these 24 cards,
    11 (seed 21) and 17 (seed 26) were found whole before."""
    deck = holdout.load_deck()
    box = holdout.Box.from_seed(seed, "flat", "striped", deck)
    h, w = box.ground.shape[:2]
    rng = np.random.default_rng([seed, 57])
    share = holdout.CARD_H / holdout.CARD_W * box.card_px() ** 2 / (w * h)
    whole = 0
    for k in range(6):
        placed = _lay_apart(holdout, box, [deck[(4 * k + i) % len(deck)] for i in range(4)], rng)
        found = find_cards(box.render(placed, rng), FindOptions(ratio=0.66, card_share=share))
        whole += sum(bool(found) and max(quad_iou(box.project(p.corners()), q) for q in found) > 0.8
                     for p in placed)
        # nothing else is taken for a card (the reader calls a find far smaller than the
        # enrolled card a part of one, not a card)
        cards = [q for q in found if cv2.contourArea(q) >= PART_OF_CARD * share * w * h]
        assert len(cards) <= len(placed)
    assert whole >= least, whole


@pytest.fixture(scope="module")
def striped(holdout, tmp_path_factory):
    """The set flat/striped 21 enrolled from its own photos (2 a card, on its table): the
    reader and the photos of the card left out of enrollment."""
    from farmbox.vision.cards import CardReader
    from farmbox.vision.cards.read import enroll

    root = tmp_path_factory.mktemp("striped")
    holdout.write_set(root, 21, "flat", "striped", tables=0, shots=2, progress=False, deck=holdout.load_deck())
    left: list[str] = []
    return CardReader(enroll(root / "enroll", left_out=left)), [str(Path(p).relative_to(root)) for p in left]


def test_a_card_found_as_a_panel_of_its_art_is_read_through_the_card_round_it(holdout, striped):
    """On a cloth of cream and red stripes a flat card's cream border vanishes on the cream
    stripes, and the finder often finds one of the card's art panels alone (its meadow, its
    sky): 0.3-0.78 of the card, read as no card (55 of 862 cards on a 120-table set).  What
    differs from the empty table round such a panel is the whole card: read through the card
    found there (``card_round``), it is its own card, never another.

    The set's own enrollment: in one photo of pig-1 only its meadow was found (its pale sky
    on a cream stripe), half the card; learned as the card, pig-1 was read as pig-4 on the
    120-table set.  The card lies at the near side of the leaning camera, larger than the median
    card: it was not found off the empty table at the median card's size and the photo was
    left out; it is now found whole there at the size a card has where it lies, and kept."""
    from farmbox.vision.cards.read import sides_moved
    from farmbox.vision.cards.table import card_round

    deck = holdout.load_deck()
    reader, left = striped
    assert left == []
    m = reader.model
    assert m.enrolled == 48 and "pig-1" in m.cards
    assert m.table.size
    rounded = right = wrong = alone = 0
    for k, (placed, image, truths) in enumerate(_striped_tables(holdout, deck, 4, 4)):
        for p, truth in zip(placed, truths):
            # a third of the card at one end or the other (sides 0 and 2 are its short sides)
            cut = np.array([-0.66, 0.0, 0.0, 0.0]) if k % 2 else np.array([0.0, 0.0, -0.66, 0.0])
            panel = order_corners(sides_moved(truth, cut))
            as_found = reader.read_outline(image, panel).id
            assert as_found in (None, p.card.id)
            alone += as_found == p.card.id
            card = card_round(image, panel, [t for t in truths if t is not truth], m.table, m.card_share, m.ratio)
            if card is None:
                continue
            rounded += quad_iou(card, truth) > 0.8
            got = reader.read_outline(image, card).id
            right += got == p.card.id
            wrong += got not in (None, p.card.id)
    assert wrong == 0
    # as found, no panel read as its card (0 of 24 when this was written); through the card
    # round it, 23 of 24 found within 0.8 of their own outline, all 23 read right
    assert alone <= 4 and rounded >= 21 and right >= 21, (rounded, right, alone)


def test_an_outline_with_a_corner_off_the_card_is_read_through_the_other_three(holdout, striped):
    """A corner of a cream card on a cream stripe has no edge: the finder may end a side on the
    card's face and run the next one across it (a sheep's marks cut off, read as no card, d 39
    where its own photos lie within 14).  A card seen from above is a parallelogram: the
    corner put where the other three make one, then fitted, reads the card."""
    reader, _ = striped
    cut = right = wrong = 0
    for k, (placed, image, corners) in enumerate(_striped_tables(holdout, holdout.load_deck(), 4, 4, tail=59)):
        for n, p in enumerate(placed):
            truth = order_corners(corners[n])
            # one corner slid a quarter of the way along its side towards the one before it
            i = (k + n) % 4
            bad = truth.copy()
            bad[i] = truth[i] + 0.25 * (truth[i - 1] - truth[i])
            got = reader.read_outline(image, bad)
            cut += 1
            right += got.id == p.card.id
            wrong += got.id not in (None, p.card.id)
    assert wrong == 0
    # 24 of 24 when this was written (10 before the corner was completed)
    assert right >= 22, (right, cut)


def _halves(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``quad`` (corners in order) cut in two across its long sides, at their middles."""
    q = order_corners(np.float32(quad))
    e = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    if e[0] + e[2] < e[1] + e[3]:
        q = np.roll(q, -1, axis=0)                   # 0-1 and 3-2 the long sides
    m01, m32 = (q[0] + q[1]) / 2, (q[3] + q[2]) / 2
    return (order_corners(np.float32([q[0], m01, m32, q[3]])), order_corners(np.float32([m01, q[1], q[2], m32])))


def test_a_card_cut_in_two_or_found_small_is_read_through_the_outline_passed_over_round_it(holdout, striped):
    """On stripes the finder may keep the wrong outline of a card: the card cut in two where
    its art runs a straight line across its middle (a meadow meeting the sky on a card lying
    across the camera), or a smaller outline inside it, the card's own passed over because a
    side ran along a stripe's edge.  Neither half reads as a card.  An outline not read is
    read again through the outlines passed over round it: the card's own outline reads the
    card, taken, and the other half gives way; an outline passed over that lies half on the
    table is read only as near its card as the enrollment's made-up copies come, and one
    over a card read is never taken."""
    from farmbox.vision.cards.read import CardReading

    reader, _ = striped
    taken = wrong = halves_read = tried = 0
    for placed, image, corners in _striped_tables(holdout, holdout.load_deck(), 5, 3):
        truths = [order_corners(t) for t in corners]
        for n, (p, t) in enumerate(zip(placed, truths)):
            first, second = _halves(t)
            halves_read += sum(reader.read_outline(image, h).id is not None for h in (first, second))
            others = [reader.read_outline(image, o) for j, o in enumerate(truths) if j != n]
            quads = [first, second] + [o.corners for o in others]
            readings = [CardReading(None, 0.0, first), CardReading(None, 0.0, second)] + others
            under = [False] * len(quads)
            # the card's own outline, one slid half a card onto the table, and one over the
            # next card read
            slid = t + 0.5 * (t[1] - t[0] if np.linalg.norm(t[1] - t[0]) > np.linalg.norm(t[2] - t[1]) else t[2] - t[1])
            over = [o.corners for o in others if o.id is not None][:1]
            reader._passed_over(image, [t], quads, readings, under)
            tried += 1
            assert len(readings) == len(quads) == len(under)
            got = [r for r in readings if r.corners is t]
            taken += bool(got) and got[0].id == p.card.id and len(readings) == len(others) + 1
            wrong += sum(r.id is not None and r.id != p.card.id for r in got)
            # the others are left as they were read
            assert readings[-len(others):] == others
            for decoy in [slid] + over:
                readings = [CardReading(None, 0.0, first), CardReading(None, 0.0, second)] + others
                reader._passed_over(image, [np.float32(decoy)], [first, second] + [o.corners for o in others],
                                    readings, [False] * (2 + len(others)))
                wrong += sum(r.id is not None and r.id != p.card.id for r in readings[:-len(others)])
                if decoy is not slid:
                    assert readings[:2] == [CardReading(None, 0.0, first), CardReading(None, 0.0, second)]
    assert tried == 18 and halves_read <= 2, (tried, halves_read)
    assert wrong == 0
    assert taken >= 14, taken        # 16 of 18 when this was written (two glared cards read far)
