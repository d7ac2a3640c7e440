"""Screens: pure functions from session state to a 128x64 1-bit PIL image."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

import farmbox.firmware.games.superfarmer.screens as sf
from farmbox.firmware.box.i18n import translator
from farmbox.firmware.games.superfarmer.session import Phase, Session
from farmbox.firmware.rules.superfarmer import EventKind

PREDATOR_EVENTS = {EventKind.LOST_TO_FOX, EventKind.LOST_TO_WOLF, EventKind.DOG_USED}


def render(session: Session, language: str = "en", names: Sequence[str] = (),
           table_url: str | None = None) -> Image.Image:
    """The screen for ``session`` as it is now; ``names`` are the players' (names.json),
    ``table_url`` the table view's address (its screen shows it as a QR code)."""
    tr = translator(language)
    s = session.state
    cam = session.camera_ok or not session.camera_expected
    if session.progress is not None:
        title, fraction = session.progress
        return sf.progress(tr, tr(title), fraction)
    notice = session.notice
    if notice is not None:
        if notice.kind == "camera_gone":
            return sf.camera_gone(tr, notice.detail)
        if notice.kind == "journal":
            dropped, _, seq = notice.detail.partition("/")
            return sf.journal_repaired(tr, int(dropped), int(seq))
    phase = session.phase
    if phase is Phase.STOCK:
        return sf.stock(s, tr, cam)
    if phase is Phase.TABLE_VIEW:
        return sf.table_view(tr, table_url)
    if phase in (Phase.LAST_ROLL, Phase.RESULT):
        who = session.rolled_by
        if {e.kind for e in s.last_events} & PREDATOR_EVENTS:
            return sf.predator(s, tr, who, camera_ok=cam, names=names)
        return sf.roll_result(s, tr, who, camera_ok=cam, names=names)
    if phase is Phase.TRADE:
        return sf.trade(s, session.menu, session.cursor, tr, cam)
    if phase is Phase.CONSENT:
        return sf.consent(s, session.menu[session.cursor], tr, cam, names)
    if phase is Phase.GREEN:
        return sf.dice_entry(s, False, session.green, None, tr, cam, names)
    if phase is Phase.RED:
        return sf.dice_entry(s, True, session.red, session.selected_faces[0], tr, cam, names)
    if phase is Phase.CONFIRM and session.seen is not None and session.seen.faces:
        return sf.confirm(s, session.seen.faces, session.seen.confidence, tr, cam, names)
    if phase is Phase.WINNER:
        return sf.winner(s, tr, cam, names)
    if phase is Phase.NEW_GAME:
        return sf.new_game(tr)
    return sf.farm(s, tr, cam, names)
