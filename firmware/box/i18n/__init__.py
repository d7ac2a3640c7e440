"""Screen texts in English and Polish: gettext catalogs chosen by ``[ui] language``.

The ``.po`` files under ``<lang>/LC_MESSAGES/`` are the source; ``python -m farmbox.firmware.box.i18n.compile``
writes the ``.mo`` files gettext reads (a test checks they are up to date).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

DOMAIN = "farmbox"
LOCALEDIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "pl")

Translate = Callable[[str], str]


@lru_cache(maxsize=None)
def translator(language: str = "en") -> Translate:
    """The ``gettext`` function for ``language`` ("en" or "pl")."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
    try:
        catalog = gettext.translation(DOMAIN, localedir=str(LOCALEDIR), languages=[language])
    except OSError as exc:
        raise OSError(f"no {language} catalog in {LOCALEDIR}: {exc}") from None
    return catalog.gettext


def po_translator(domain: str, language: str, catalog: str) -> Translate:
    """The texts of ``domain`` in ``language``, read straight from its ``.po`` file (no compile
    step); a text missing from the catalog stays English. ``catalog`` names it in errors."""
    from farmbox.firmware.box.i18n.compile import parse_po

    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
    path = LOCALEDIR / language / "LC_MESSAGES" / f"{domain}.po"
    try:
        messages = parse_po(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OSError(f"no {language} {catalog} catalog: {exc}") from None
    return lambda text: messages.get(text) or text
