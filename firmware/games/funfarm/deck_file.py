"""Reading an owner's Fun Farm deck file (``[funfarm] deck``): the I/O the rules leave out.

The rules parse and check the text (:func:`farmbox.firmware.rules.funfarm.parse_deck_text`);
here the file is found and read. Every problem, a missing file included, is one
:class:`~farmbox.firmware.rules.funfarm.InvalidDeck` line naming the file (and the card).

>>> read_deck(None).provisional
True
>>> read_deck("/no/such/deck.toml")
Traceback (most recent call last):
...
farmbox.firmware.rules.funfarm.deck.InvalidDeck: deck file /no/such/deck.toml: no such file
"""

from __future__ import annotations

import os
from pathlib import Path

from farmbox.firmware.rules.funfarm import Deck, InvalidDeck, load_deck, parse_deck_text


def read_deck(path: str | os.PathLike[str] | None) -> Deck:
    """The deck in the file ``path``; None or "" is the packaged provisional default."""
    if path is None or str(path) == "":
        return load_deck()
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidDeck(f"deck file {where}: no such file") from None
    except IsADirectoryError:
        raise InvalidDeck(f"deck file {where}: is a directory, not a deck file") from None
    except UnicodeDecodeError:
        raise InvalidDeck(f"deck file {where}: not UTF-8 text") from None
    except OSError as exc:
        raise InvalidDeck(f"deck file {where}: {exc.strerror or exc}") from None
    return parse_deck_text(text, f"deck file {where}")
