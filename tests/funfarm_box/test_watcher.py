"""The camera side: rendered table frames through the real card reader and stillness detector."""

from __future__ import annotations

import numpy as np
import pytest

from farmbox.firmware.games.funfarm.box import TableWatcher
from farmbox.firmware.games.funfarm.session import CardsSeen, DiceSeen, FunFarmSession
from farmbox.firmware.rules.funfarm import FunFarmRules, Phase


@pytest.fixture(scope="module")
def card_reader(tmp_path_factory):
    from farmbox.vision import cards
    from farmbox.vision.render import cards as render

    root = tmp_path_factory.mktemp("cards")
    render.enrollment_samples(root, per_card=1, seed=0)
    reader = cards.CardReader(cards.enroll(root))
    return lambda frame: [(r.id, r.corners) for r in reader.read(frame)]


def test_a_turned_card_is_seen_once_the_table_is_still(card_reader):
    from farmbox.vision.dice import Stillness
    from farmbox.vision.render import cards as render

    before = render.scene(5, ids=["pig-2", "cow-1"]).image
    after = render.scene(5, ids=["pig-2", "cow-1", "chick-3"]).image
    watcher = TableWatcher(card_reader, None, Stillness(frames=2))
    seen: list = []
    noise = np.random.default_rng(0).integers(0, 255, before.shape, dtype=np.uint8)
    for frame in [before] * 3 + [noise] * 2 + [after] * 4:
        seen.extend(watcher(frame))
    assert seen[0] == DiceSeen(None, None)  # the hand over the table
    cards = [o for o in seen if isinstance(o, CardsSeen)]
    assert len(cards) == 1 and set(cards[0].ids) == {"pig-2", "cow-1", "chick-3"}
    # The session draws the one card it has not seen (the others are in its circle already).
    rules = FunFarmRules()
    s = FunFarmSession(2, rules)
    for cid in ("pig-2", "cow-1"):
        s.card_turned(cid)
        s.dice_read(rules.parse_roll("red,red"), 0)
    s.cards_seen(cards[0])
    assert rules.deck.cards[s.state.circle[-1]].id == "chick-3" and s.state.phase is Phase.ROLL


def test_camera_unplugged_shows_the_notice_and_the_buzzers_still_work(table):
    import time

    import farmbox.firmware.games.superfarmer.screens as sf
    from farmbox.firmware.box.camera import CameraWatcher
    from farmbox.firmware.box.i18n import translator
    from farmbox.firmware.games.funfarm.screens import render
    from farmbox.hw import FeedCamera
    from farmbox.vision.dice import Stillness

    alerts: list[str] = []
    real = table.hw.alert
    table.hw.alert = lambda name: (alerts.append(name), real(name))
    camera = FeedCamera(timeout=0.05)
    camera.unplug()
    watcher = CameraWatcher(camera, TableWatcher(None, None, Stillness()), table.referee.inbox.put)
    watcher.start()
    try:
        deadline = time.monotonic() + 3
        while table.session.notice is None and time.monotonic() < deadline:
            table.referee.step(0.02)
    finally:
        watcher.stop()
    notice = table.session.notice
    assert notice is not None and notice.kind == "camera_gone" and "unplugged" in notice.detail
    assert render(table.session).tobytes() == sf.camera_gone(translator("en"),
                                                             notice.detail).tobytes()
    assert "error" in alerts
    table.push((1,))  # a false start is still refereed
    assert table.session.state.scores == (0, 0, 0) and table.session.verdict.players == (1,)


def test_serve_runs_the_box_until_stopped(tmp_path, pins):
    import threading
    import time

    from farmbox.firmware.box.config import load_config
    from farmbox.firmware.games.funfarm.box import serve
    from farmbox.hw import open_hardware

    config = load_config().with_overrides(
        hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
        journal={"dir": str(tmp_path)}, game={"mode": "funfarm", "players": 3},
        buttons={"debounce_ms": 1, "hold_time": 0.2})
    hw = open_hardware(config)
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(config, hw, stop), daemon=True)
    thread.start()
    try:
        journal = tmp_path / "funfarm.jsonl"
        deadline = time.monotonic() + 5
        while not journal.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        hw.buttons.tap("farmer")   # card entry
        hw.buttons.hold("farmer")  # pick the first card
        deadline = time.monotonic() + 5
        while journal.read_text().count("\n") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join(timeout=5)
        hw.close()
    assert not thread.is_alive()
    lines = journal.read_text().splitlines()
    assert '"action":"new_game"' in lines[0] and '"action":"draw"' in lines[1]
    assert hw.display.last_image is not None
