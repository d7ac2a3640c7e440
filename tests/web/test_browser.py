"""The table view in a real headless chromium (Selenium): it loads, follows a scripted game
turn by turn, a correction with the PIN changes the game and the journal, a wrong PIN gets
403 and changes nothing; the phone and TV layouts (screenshots to $FARMBOX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from .conftest import PIN

WAIT = 15


def seq_shown(driver) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-seq") or -1)


def wait_seq(driver, seq: int) -> None:
    WebDriverWait(driver, WAIT).until(lambda d: seq_shown(d) == seq)


def texts(driver, selector: str) -> list[str]:
    """The text of every node matching selector, read in one script: the page re-renders on
    each event, so nodes found in one call may be replaced before the next call reads them."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(n => n.textContent.trim())", selector)


def attributes(driver, selector: str, name: str) -> list[str | None]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(n => n.getAttribute(arguments[1]))",
        selector, name)


def boxes(driver, selector: str) -> list[dict[str, float]]:
    """Where every node matching selector sits on the page, read in one script."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(n => {"
        " const r = n.getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY}; })",
        selector)


def farm_values(driver) -> list[int]:
    return [int(text.split()[0]) for text in texts(driver, ".farm .value")]


def answer(driver) -> str:
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-status"))
    node = driver.find_element(By.ID, "answer")
    status = node.get_attribute("data-status") or ""
    driver.execute_script("arguments[0].removeAttribute('data-status')", node)
    return status


def test_page_follows_a_scripted_game_turn_by_turn(table, browser):
    browser.set_window_size(390, 844)
    browser.get(table.url)
    wait_seq(browser, 1)
    assert browser.find_element(By.ID, "title").text == "Super Farmer"
    script = [("rabbit", "rabbit"), ("sheep", "sheep"), ("rabbit", "rabbit"), ("pig", "rabbit"),
              ("rabbit", "fox"), ("wolf", "sheep")]
    for turn, (green, red) in enumerate(script, start=2):
        table.roll(green, red)
        wait_seq(browser, turn)
        state = table.box.session.state
        WebDriverWait(browser, WAIT).until(lambda d: farm_values(d) == [f.value for f in state.farms])
        assert attributes(browser, "#roll .die", "data-face") == [green, red]
        assert attributes(browser, ".farm.current", "data-farm") == [str(state.current)]
    alert = browser.find_element(By.ID, "alert")
    assert alert.is_displayed() and alert.text.startswith("Wolf!")
    assert "rabbits" in browser.find_element(By.ID, "odds").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline")) == 2


def test_pin_correction_changes_the_game_and_the_journal(table, browser):
    browser.get(table.url)
    wait_seq(browser, 1)
    table.roll("pig", "rabbit", confidence=0.55)  # the camera is unsure
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "unsure").is_displayed())
    assert "pig + rabbit" in browser.find_element(By.ID, "unsure-read").text
    browser.find_element(By.ID, "pin").send_keys(PIN)
    # It was really sheep + sheep: correct it from the phone.
    Select(browser.find_element(By.ID, "green")).select_by_value("sheep")
    Select(browser.find_element(By.ID, "red")).select_by_value("sheep")
    browser.find_element(By.ID, "send-roll").click()
    assert answer(browser) == "202"
    wait_seq(browser, 2)
    assert table.records()[-1]["action"] == {"action": "roll", "roll": "sheep,sheep", "source": "web"}
    assert table.box.session.state.farms[0].as_dict()["sheep"] == 1
    WebDriverWait(browser, WAIT).until(lambda d: farm_values(d)[0] == 6)
    # The page says where the roll came from: entered on the web, not read by the camera.
    WebDriverWait(browser, WAIT).until(lambda d: attributes(d, "#roll-source", "data-source") == ["web"])
    assert "entered on the web" in texts(browser, "#roll-source")[0]
    # Undo from the page: the journal records it and the page follows.
    browser.find_element(By.ID, "undo").click()
    assert answer(browser) == "202"
    wait_seq(browser, 3)
    assert table.records()[-1]["action"] == {"action": "undo"}
    WebDriverWait(browser, WAIT).until(lambda d: farm_values(d) == [0, 0])
    # Names from the page.
    for seat, field in enumerate(browser.find_elements(By.CSS_SELECTOR, "input.name")):
        field.clear()
        field.send_keys(["Ala", "Bolek"][seat])
    browser.find_element(By.ID, "send-names").click()
    assert answer(browser) == "202"
    WebDriverWait(browser, WAIT).until(
        lambda d: texts(d, ".farm-name") == ["Ala", "Bolek"])
    assert table.box.names == ("Ala", "Bolek")
    # A new game mid-game from the page: journaled like the box's own, the page follows.
    table.roll("pig", "pig")
    wait_seq(browser, 4)
    browser.find_element(By.ID, "new-game").click()
    assert answer(browser) == "202"
    wait_seq(browser, 1)
    assert [r["action"]["action"] for r in table.records()] == ["new_game"]
    WebDriverWait(browser, WAIT).until(lambda d: farm_values(d) == [0, 0])
    assert texts(browser, ".farm-name") == ["Ala", "Bolek"]  # the names stay with the table


def test_wrong_pin_from_the_page_is_403_and_changes_nothing(table, browser):
    browser.get(table.url)
    wait_seq(browser, 1)
    table.roll("sheep", "rabbit")
    wait_seq(browser, 2)
    journal = table.journal_file.read_bytes()
    pin = browser.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1357")
    for button in ("undo", "send-roll", "new-game"):
        browser.find_element(By.ID, button).click()
        assert answer(browser) == "403"
        assert "wrong PIN" in browser.find_element(By.ID, "answer").text
    table.box.drain()
    assert table.journal_file.read_bytes() == journal
    assert seq_shown(browser) == 2 and table.box.journal.seq == 2


def test_phone_stacks_the_farms_and_the_tv_puts_them_side_by_side(table, browser):
    for green, red in [("sheep", "sheep"), ("rabbit", "rabbit"), ("pig", "pig"), ("rabbit", "fox")]:
        table.roll(green, red)
    out = os.environ.get("FARMBOX_SCREENSHOTS")
    for name, (width, height) in (("phone", (390, 1400)), ("tv", (1600, 900))):
        browser.set_window_size(width, height)
        browser.get(table.url)
        wait_seq(browser, 5)
        farms = boxes(browser, ".farm")
        side, = boxes(browser, "#roll")
        if name == "phone":
            assert farms[0]["y"] < farms[1]["y"] and side["y"] > farms[1]["y"]
        else:
            assert farms[0]["y"] == farms[1]["y"] and side["x"] > farms[1]["x"]
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(Path(out) / f"table-{name}.png"))


def test_card_game_score_corrected_from_the_page(tmp_path, browser):
    from farmbox.firmware.box.config import load_config
    from farmbox.firmware.box.observations import Press
    from farmbox.firmware.games.cardgame.box import open_box
    from farmbox.firmware.web.server import TableServer
    from farmbox.hw.pins import simulated_pins

    with simulated_pins():
        config = load_config().with_overrides(journal={"dir": str(tmp_path)},
                                              game={"mode": "cardgame", "players": 2})
        box = open_box(config)
        box.start()
        server = TableServer(box, "cardgame", port=0, bind="127.0.0.1", pin=PIN).start()
        try:
            while not (box.keeper.state is not None and box.keeper.state.results):
                box.take(Press("ok"))  # round 1 entered with the defaults and scored
            before = box.keeper.state.results[0]
            browser.set_window_size(390, 844)
            browser.get(server.url)
            wait_seq(browser, box.journal.seq)
            assert browser.find_element(By.ID, "send-correct").is_displayed()
            assert not browser.find_element(By.ID, "send-roll").is_displayed()
            pin = browser.find_element(By.ID, "pin")
            pin.clear()
            pin.send_keys(PIN)
            Select(browser.find_element(By.ID, "correct-round")).select_by_value("1")
            Select(browser.find_element(By.ID, "correct-seat")).select_by_value("1")
            browser.find_element(By.ID, "correct-points").send_keys(str(before.points[1] + 5))
            browser.find_element(By.ID, "send-correct").click()
            assert answer(browser) == "202"
            assert wait_until(box, lambda: box.keeper.state.results[0].points[1] == before.points[1] + 5)
            WebDriverWait(browser, WAIT).until(lambda d: texts(d, ".round .points")[1].startswith(
                f"{before.points[1] + 5} "))
            assert texts(browser, ".farm .value")[1] == f"{before.totals[1] + 5} points"
            screenshot(browser, "cardgame-phone")
        finally:
            server.stop()
            box.close()


def test_fun_farm_race_awarded_from_the_page(tmp_path, browser):
    from farmbox.firmware.web.server import TableServer
    from farmbox.hw.pins import simulated_pins
    from tests.funfarm_box.conftest import activating, open_table

    with simulated_pins():
        t = open_table(tmp_path / "journal", 3)
        server = TableServer(t.referee, "funfarm", port=0, bind="127.0.0.1", pin=PIN).start()
        try:
            rules = t.session.rules
            card = t.session.state.draw_pile[0]
            t.turn(rules.deck.cards[card].id)
            roll = activating(rules, card)
            t.roll(roll.black, roll.white)
            browser.set_window_size(390, 844)
            browser.get(server.url)
            wait_seq(browser, t.referee.journal.seq)
            assert attributes(browser, ".card.activated", "data-card") == [rules.deck.cards[card].id]
            pin = browser.find_element(By.ID, "pin")
            pin.clear()
            pin.send_keys(PIN)
            Select(browser.find_element(By.ID, "award-player")).select_by_value("2")
            browser.find_element(By.ID, "send-award").click()
            assert answer(browser) == "202"
            assert wait_until(t.referee, lambda: card in t.session.state.piles[2])
            WebDriverWait(browser, WAIT).until(lambda d: texts(d, ".farm .value") ==
                                               ["0 cards", "0 cards", "1 card"])
            WebDriverWait(browser, WAIT).until(lambda d: texts(d, "#takes li"))
            assert texts(browser, "#takes li") == [f"Farmer 3 took {rules.deck.cards[card].id} (awarded)"]
            screenshot(browser, "funfarm-phone")
            browser.find_element(By.ID, "undo").click()
            assert answer(browser) == "202"
            assert wait_until(t.referee, lambda: card not in t.session.state.piles[2])
            WebDriverWait(browser, WAIT).until(lambda d: texts(d, ".farm .value") ==
                                               ["0 cards", "0 cards", "0 cards"])
        finally:
            server.stop()
            t.referee.close()
            t.hw.close()


def wait_until(box, test, seconds: float = WAIT) -> bool:
    """Let ``box`` (no loop thread here) take what the page sent until ``test()``."""
    import time

    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        box.step(timeout=0.02)
    return True


def screenshot(driver, name: str) -> None:
    """The page as it is, to $FARMBOX_SCREENSHOTS/NAME.png (docs/web), when that is set."""
    out = os.environ.get("FARMBOX_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(out) / f"{name}.png"))
