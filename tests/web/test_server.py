"""The table view over plain HTTP: the view follows the box, commands go through its inbox
and journal, a wrong PIN is 403 and changes nothing, brute force is locked out."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from farmbox.firmware.web.guard import PinGuard
from farmbox.firmware.web.icons import DRAW
from tests.box_service import wait_for

from .conftest import PIN


def get(url: str) -> tuple[int, bytes, str]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read(), r.headers.get("Content-Type", "")


def post(url: str, body: object) -> tuple[int, dict]:
    request = urllib.request.Request(url + "api/command", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def view(url: str) -> dict:
    return json.loads(get(url + "api/view")[1])


def test_page_assets_and_icons_are_served_from_the_package(table):
    status, body, kind = get(table.url)
    assert status == 200 and b"/static/app.js" in body and kind.startswith("text/html")
    for name in ("app.js", "style.css"):
        assert get(table.url + "static/" + name)[0] == 200
    for name in DRAW:
        status, body, kind = get(table.url + f"icons/{name}.svg")
        assert kind.startswith("image/svg+xml") and body.startswith(b"<svg") and b"http" not in body.replace(
            b"http://www.w3.org/2000/svg", b"")
    try:
        get(table.url + "static/../server.py")
        raise AssertionError("served a file outside static/")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404


def test_view_follows_each_settled_roll(table):
    box = table.box
    for green, red in [("rabbit", "rabbit"), ("sheep", "sheep"), ("rabbit", "fox"), ("wolf", "sheep")]:
        before = box.journal.seq
        table.roll(green, red)
        assert wait_for(lambda: view(table.url)["seq"] == before + 1)
        v = view(table.url)
        state = box.session.state
        assert [f["value"] for f in v["farms"]] == [f.value for f in state.farms]
        assert v["stock"] == state.stock.as_dict() and v["current"] == state.current
        assert v["last_roll"]["faces"] == [green, red]
        assert len(v["chart"]) == sum(state.turns) + 1
    assert v["predators"] and v["predators"][0]["animal"] == "wolf"


def test_unsure_read_confirmed_from_the_page_goes_to_the_journal(table):
    table.roll("pig", "rabbit", confidence=0.5)
    assert wait_for(lambda: view(table.url)["unsure"] is not None)
    assert view(table.url)["unsure"]["faces"] == ["pig", "rabbit"]
    seq = table.box.journal.seq
    status, answer = post(table.url, {"pin": PIN, "command": "confirm"})
    assert status == 202, answer
    assert wait_for(lambda: table.box.journal.seq == seq + 1)
    assert table.records()[-1]["action"]["roll"] == "pig,rabbit"


def test_wrong_pin_is_403_and_changes_nothing(table):
    table.roll("rabbit", "rabbit")
    assert wait_for(lambda: table.box.journal.seq == 2)
    journal = table.journal_file.read_bytes()
    for body in ({"pin": "1111", "command": "undo"}, {"command": "undo"},
                 {"pin": 2468, "command": "undo"}, {"pin": "1111", "command": "names", "names": ["X", "Y"]}):
        status, answer = post(table.url, body)
        assert status == 403 and answer["message"] == "wrong PIN"
    table.box.drain()
    assert table.journal_file.read_bytes() == journal and table.box.inbox.empty()
    assert view(table.url)["names"] == ["Farmer 1", "Farmer 2"]


def test_brute_force_is_locked_out_even_for_the_right_pin(table, clock):
    for _ in range(PinGuard.TRIES):
        assert post(table.url, {"pin": "0000", "command": "undo"})[0] == 403
    status, answer = post(table.url, {"pin": PIN, "command": "undo"})
    assert status == 429 and "too many wrong PINs" in answer["message"]
    clock.now += PinGuard.LOCKOUT
    # The next lock-out, without the right PIN in between, is twice as long.
    for _ in range(PinGuard.TRIES):
        assert post(table.url, {"pin": "0000", "command": "undo"})[0] == 403
    clock.now += PinGuard.LOCKOUT
    assert post(table.url, {"pin": PIN, "command": "undo"})[0] == 429
    clock.now += PinGuard.LOCKOUT
    # The PIN is taken again (nothing to undo yet: 409, not 403 or 429).
    assert post(table.url, {"pin": PIN, "command": "undo"}) == (409, {"ok": False, "message": "nothing to undo"})


def test_undo_names_and_bad_commands(table, tmp_path):
    table.roll("sheep", "sheep")
    # the box writes its journal first, then takes the roll into its game: the undo is
    # offered once the roll is in the game (the journal alone raced it: 409 "nothing to undo")
    assert wait_for(lambda: table.box.journal.seq == 2 and table.box.session.can_undo)
    assert post(table.url, {"pin": PIN, "command": "undo"})[0] == 202
    assert wait_for(lambda: table.box.journal.seq == 3 and table.box.session.state.turns == (0, 0))
    assert table.records()[-1]["action"] == {"action": "undo"}
    status, _ = post(table.url, {"pin": PIN, "command": "names", "names": ["Ala", "  Ola  "]})
    assert status == 202
    assert wait_for(lambda: view(table.url)["names"] == ["Ala", "Ola"])
    assert json.loads((table.journal_file.parent / "names.json").read_text()) == {"names": ["Ala", "Ola"]}
    assert post(table.url, {"pin": PIN, "command": "roll", "green": "fox", "red": "fox"})[0] == 400
    assert post(table.url, {"pin": PIN, "command": "fly"})[0] == 400
    assert post(table.url, {"pin": PIN, "command": "names", "names": ["a", "b", "c"]})[0] == 400
    assert post(table.url, {"pin": PIN, "command": "names", "names": ["a", ""]})[0] == 400
    request = urllib.request.Request(table.url + "api/command", data=b"[not json", method="POST")
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as exc:
        assert exc.code == 400


def test_new_game_mid_game_from_the_page_starts_one_journaled(table):
    """Issue 14, left open 6: "new game" mid-game was 409; it is the box's own new game."""
    for green, red in [("sheep", "sheep"), ("rabbit", "rabbit"), ("pig", "sheep")]:
        table.roll(green, red)
    assert wait_for(lambda: table.box.journal.seq == 4)
    assert not table.box.session.state.over
    status, answer = post(table.url, {"pin": PIN, "command": "new_game"})
    assert status == 202, answer
    # The journal rotates as for the box's own new game: the old game is kept aside whole.
    assert wait_for(lambda: table.box.journal.seq == 1 and table.box.session.state.turns == (0, 0))
    records = table.records()
    assert [r["action"]["action"] for r in records] == ["new_game"]
    kept = [p for p in table.journal_file.parent.iterdir() if p.name != table.journal_file.name
            and p.name.startswith("superfarmer")]
    assert kept and b'"roll":"pig,sheep"' in b"".join(p.read_bytes() for p in kept)
    assert all(f.value == 0 for f in table.box.session.state.farms)
    assert wait_for(lambda: view(table.url)["seq"] == 1 and view(table.url)["turns"] == [0, 0])


def test_a_roll_entered_on_the_page_is_journaled_as_from_the_web(table):
    """Issue 14, left open 7: a roll from the page was journaled as "camera"."""
    table.roll("sheep", "rabbit")  # the camera's
    assert wait_for(lambda: table.box.journal.seq == 2)
    assert table.records()[-1]["action"]["source"] == "camera"
    assert wait_for(lambda: view(table.url)["last_roll"]["source"] == "camera")
    status, answer = post(table.url, {"pin": PIN, "command": "roll", "green": "pig", "red": "rabbit"})
    assert status == 202, answer
    assert wait_for(lambda: table.box.journal.seq == 3)
    assert table.records()[-1]["action"] == {"action": "roll", "roll": "pig,rabbit", "source": "web"}
    assert wait_for(lambda: view(table.url)["last_roll"]["source"] == "web")
    # A correction of an unsure read is an entry from the page too; a confirmation is the camera's.
    table.roll("cow", "horse", confidence=0.5)
    assert wait_for(lambda: view(table.url)["unsure"] is not None)
    assert post(table.url, {"pin": PIN, "command": "roll", "green": "cow", "red": "sheep"})[0] == 202
    assert wait_for(lambda: table.box.journal.seq == 4)
    assert table.records()[-1]["action"]["source"] == "web"
    table.roll("rabbit", "rabbit", confidence=0.5)
    assert wait_for(lambda: view(table.url)["unsure"] is not None)
    assert post(table.url, {"pin": PIN, "command": "confirm"})[0] == 202
    assert wait_for(lambda: table.box.journal.seq == 5)
    assert table.records()[-1]["action"]["source"] == "camera"


def test_the_box_says_settled_once_its_session_took_the_action_in(tmp_path):
    """The box publishes an action inside its journal commit, before its session has taken
    it in whole (who rolled, from where, what the camera saw); the "settled" event after the
    step is when a follower that reads the session sees all of it."""
    from farmbox.firmware.box.config import load_config
    from farmbox.firmware.box.observations import Remote
    from farmbox.firmware.games.superfarmer.box import Service
    from farmbox.hw import open_hardware
    from farmbox.hw.pins import simulated_pins

    with simulated_pins():
        config = load_config().with_overrides(
            hardware={"simulated": True}, display={"driver": "dummy"}, camera={"source": "none"},
            journal={"dir": str(tmp_path)})
        hw = open_hardware(config)
        box = Service(config, hardware=hw)
        try:
            session = box.start()
            seen: list[tuple[str, int, str | None]] = []
            box.events.subscribe(lambda e: seen.append((e.kind, e.seq, session.rolled_from)))
            assert box.take(Remote("roll", {"green": "sheep", "red": "rabbit"}))
            assert seen == [("action", 2, None), ("settled", 2, "web")]
            seen.clear()
            assert not box.take(Remote("roll", {"green": "sheep", "red": "wolf"}))  # refused
            assert seen == []
        finally:
            box.close()
            hw.close()
