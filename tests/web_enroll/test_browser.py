"""The /enroll page in a real headless chromium (Selenium): with the PIN it shows the camera's
picture with the card outlined and which card to lay down; Take and Keep go through the box's
session (the OLED follows); a wrong PIN gets 403 and changes nothing. A screenshot of the
phone layout goes to $FARMBOX_SCREENSHOTS."""

from __future__ import annotations

import os
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import farmbox.firmware.games.enroll.shot_screens as shot_screens
from farmbox.firmware.games.enroll.cards import Cards
from farmbox.firmware.games.enroll.shots import Lesson, Phase
from farmbox.hw.pins import simulated_pins

from .conftest import CARDS, PIN, Clock, Enrollment

WAIT = 15


def page(driver) -> dict:
    """The page's state, read in one script (the page re-renders as it polls)."""
    return driver.execute_script("""
        const t = (id) => document.getElementById(id).textContent.trim();
        return {phase: document.body.dataset.phase, done: document.body.dataset.done,
                next: t("next"), count: t("count"),
                found: document.getElementById("found").dataset.found || "",
                preview: !document.getElementById("preview").hidden,
                picture: document.getElementById("picture").naturalWidth,
                enabled: [...document.querySelectorAll("button[data-action]")]
                    .filter(b => !b.disabled).map(b => b.dataset.action),
                weak: [...document.querySelectorAll("#weak li")].map(li => li.textContent)};""")


def until(driver, condition):
    WebDriverWait(driver, WAIT).until(lambda d: condition(page(d)))
    return page(driver)


def answer(driver) -> str:
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-status"))
    node = driver.find_element(By.ID, "answer")
    status = node.get_attribute("data-status") or ""
    driver.execute_script("arguments[0].removeAttribute('data-status')", node)
    return status


def test_enroll_a_card_from_the_phone(enrollment, card_table, browser):
    browser.set_window_size(390, 1100)
    enrollment.hw.camera.push(card_table.card("sheep-1", 1))
    browser.get(enrollment.url)
    shown = until(browser, lambda p: p["phase"] == "prompt")
    assert shown["next"] == "SHEEP-1 (photo 1 of 2)" and shown["count"] == "0/4"
    assert not shown["preview"]  # no PIN yet: no camera picture
    browser.find_element(By.ID, "pin").send_keys(PIN)
    shown = until(browser, lambda p: p["preview"] and p["found"] == "1" and p["picture"])
    assert shown["picture"] == 38 * 4  # our own picture of the card, the OLED's, 4x
    out = os.environ.get("FARMBOX_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(out) / "enroll-phone.png"))
    browser.find_element(By.ID, "take").click()
    assert answer(browser) == "202"
    shown = until(browser, lambda p: p["phase"] == "review")
    assert "keep" in shown["enabled"] and "take" not in shown["enabled"]
    enrollment.wait(lambda s: s.phase is Phase.REVIEW)
    browser.find_element(By.ID, "keep").click()
    assert answer(browser) == "202"
    shown = until(browser, lambda p: p["done"] == "1" and p["phase"] == "prompt")
    assert shown["next"] == "SHEEP-1 (photo 2 of 2)"
    enrollment.wait(lambda s: s.progress()[0] == 1 and s.phase is Phase.PROMPT)
    # the OLED shows the same step as the page (once the box has drawn it: the page may see
    # the step before the box's loop redraws its screen)
    display = enrollment.hw.display
    with enrollment.box.lock:
        expected = shot_screens.render(enrollment.session, enrollment.box.tr)
    enrollment.wait(lambda s: display.last_image is not None and display.last_image.tobytes() == expected.tobytes())


def test_a_wrong_pin_from_the_page_is_403_and_changes_nothing(enrollment, card_table, browser):
    browser.set_window_size(390, 1100)
    enrollment.hw.camera.push(card_table.card("sheep-1", 1))
    browser.get(enrollment.url)
    until(browser, lambda p: p["phase"] == "prompt")
    browser.find_element(By.ID, "pin").send_keys("1357")
    browser.find_element(By.ID, "take").click()
    assert answer(browser) == "403"
    assert "wrong PIN" in browser.find_element(By.ID, "answer").text
    with enrollment.box.lock:
        assert enrollment.session.phase is Phase.PROMPT and enrollment.session.progress()[0] == 0
    assert not page(browser)["preview"]


class FirstRoundWeak(Cards):
    """The reader's own learning, with its check calling pig-3 weak in the first round."""

    def __init__(self) -> None:
        super().__init__(jitter=2)
        self.rounds = 0

    def learn(self, photos, on_progress, background=None):
        lesson = super().learn(photos, on_progress, background)
        self.rounds += 1
        return Lesson(lesson.model, ("pig-3",) if self.rounds == 1 else ())


def test_the_page_names_the_weak_cards_and_redoes_them(tmp_path, card_table, browser):
    browser.set_window_size(390, 1100)
    with simulated_pins():
        e = Enrollment(tmp_path, Clock(), reader=FirstRoundWeak())
        try:
            browser.get(e.url)
            browser.find_element(By.ID, "pin").send_keys(PIN)
            until(browser, lambda p: p["phase"] == "clear")
            e.take_the_table(card_table.empty())
            until(browser, lambda p: p["phase"] == "prompt")
            for card in CARDS:  # on the box's buttons this time
                for n in (1, 2):
                    e.hw.camera.push(card_table.card(card, n))
                    e.wait(lambda s: s.phase is Phase.PROMPT)
                    e.hw.buttons.tap("ok")
                    e.wait(lambda s: s.phase is Phase.REVIEW)
                    e.hw.buttons.tap("ok")
            e.wait(lambda s: s.phase is Phase.CHECK, timeout=60)
            shown = until(browser, lambda p: p["phase"] == "check")
            assert shown["weak"] == ["PIG-3"] and sorted(shown["enabled"]) == ["finish", "redo"]
            out = os.environ.get("FARMBOX_SCREENSHOTS")
            if out:
                browser.save_screenshot(str(Path(out) / "enroll-phone-weak.png"))
            browser.find_element(By.ID, "redo").click()
            assert answer(browser) == "202"
            shown = until(browser, lambda p: p["phase"] == "prompt")
            assert shown["next"] == "PIG-3 (photo 1 of 2)" and shown["count"] == "2/4"
            for n in (3, 4):
                e.hw.camera.push(card_table.card("pig-3", n))
                until(browser, lambda p, kept=n - 1: p["phase"] == "prompt" and p["done"] == str(kept)
                      and "take" in p["enabled"])
                browser.find_element(By.ID, "take").click()
                assert answer(browser) == "202"
                until(browser, lambda p: p["phase"] == "review")
                browser.find_element(By.ID, "keep").click()
                assert answer(browser) == "202"
            e.wait(lambda s: s.phase is Phase.DONE, timeout=60)
            shown = until(browser, lambda p: p["phase"] == "done")
            assert shown["weak"] == [] and e.session.learned.weak == ()
            browser.find_element(By.ID, "finish").click()
            assert answer(browser) == "202"
            e.wait(lambda s: s.finished)
        finally:
            e.close()
