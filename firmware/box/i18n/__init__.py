"""Screen texts in English and Polish: one gettext catalog per game and language.

The catalogs are the ``.po`` files under ``<lang>/LC_MESSAGES/<domain>.po`` (``farmbox`` for
Super Farmer and the box's own notices, ``funfarm``, ``cardgame``, ``enroll``), read with
polib: there is no compile step and no second copy. ``[ui] language`` picks the language; a
text missing from a catalog stays English.

>>> translator("pl")("WOLF!")
'WILK!'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import polib

DOMAIN = "farmbox"
LOCALEDIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "pl")

Translate = Callable[[str], str]


def catalog_path(domain: str, language: str) -> Path:
    """Where the catalog of ``domain`` in ``language`` lives."""
    return LOCALEDIR / language / "LC_MESSAGES" / f"{domain}.po"


def catalogs() -> list[Path]:
    """Every catalog shipped, each language's and each game's."""
    return sorted(LOCALEDIR.glob("*/LC_MESSAGES/*.po"))


def messages(domain: str, language: str) -> dict[str, str]:
    """msgid -> msgstr of one catalog (untranslated entries left out)."""
    path = catalog_path(domain, language)
    try:
        entries = polib.pofile(str(path), encoding="utf-8")
    except OSError as exc:
        raise OSError(f"no {language} catalog {path.name}: {exc.strerror or exc}") from None
    return {e.msgid: e.msgstr for e in entries if e.msgstr and not e.obsolete}


@cache
def translator(language: str = "en", domain: str = DOMAIN) -> Translate:
    """The texts of ``domain`` in ``language`` ("en" or "pl")."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (expected {' or '.join(LANGUAGES)})")
    table = messages(domain, language)
    return lambda text: table.get(text) or text


def po_translator(domain: str, language: str, catalog: str = "") -> Translate:
    """:func:`translator` for a game's own catalog (``catalog`` was its name in messages)."""
    return translator(language, domain)
