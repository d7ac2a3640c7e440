"""Screen texts in English and Polish: gettext catalogs chosen by ``[ui] language``.

The ``.po`` files under ``<lang>/LC_MESSAGES/`` are the source; ``python -m firmware.i18n.compile``
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
