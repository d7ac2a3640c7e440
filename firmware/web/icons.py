"""Our own SVG icons for the table view, drawn here in code from circles and paths.

Each icon is a 64x64 viewBox; :func:`svg` returns the whole document.

>>> svg("rabbit").startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Callable

_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="{name}">'


def _legs(colour: str, xs: tuple[int, ...], top: int = 40, bottom: int = 54) -> str:
    return "".join(f'<rect x="{x}" y="{top}" width="5" height="{bottom - top}" rx="2" fill="{colour}"/>'
                   for x in xs)


def _rabbit() -> str:
    return ('<ellipse cx="30" cy="42" rx="16" ry="12" fill="#c9c2b8"/>'
            '<circle cx="44" cy="30" r="9" fill="#c9c2b8"/>'
            '<ellipse cx="42" cy="13" rx="3.5" ry="11" fill="#c9c2b8"/>'
            '<ellipse cx="49" cy="14" rx="3.5" ry="11" fill="#b8afa4"/>'
            '<circle cx="47" cy="28" r="1.8" fill="#222"/>'
            '<circle cx="15" cy="40" r="5" fill="#fff"/>')


def _sheep() -> str:
    wool = "".join(f'<circle cx="{x}" cy="{y}" r="8" fill="#f4f1ea"/>'
                   for x, y in ((18, 30), (28, 26), (38, 28), (20, 40), (32, 40), (42, 38)))
    return (_legs("#444", (18, 26, 34, 40)) + wool +
            '<ellipse cx="50" cy="30" rx="7" ry="9" fill="#444"/>'
            '<circle cx="52" cy="28" r="1.6" fill="#fff"/>')


def _pig() -> str:
    return (_legs("#e48fa0", (18, 26, 36, 44)) +
            '<ellipse cx="31" cy="34" rx="20" ry="13" fill="#f2a7b5"/>'
            '<circle cx="49" cy="30" r="9" fill="#f2a7b5"/>'
            '<ellipse cx="56" cy="32" rx="4" ry="3.5" fill="#e48fa0"/>'
            '<path d="M44 21 l4 -6 l3 7 z" fill="#e48fa0"/>'
            '<circle cx="49" cy="27" r="1.6" fill="#222"/>'
            '<path d="M11 32 q-5 -4 -1 -8" stroke="#e48fa0" stroke-width="2" fill="none"/>')


def _cow() -> str:
    return (_legs("#333", (16, 24, 38, 46)) +
            '<rect x="10" y="22" width="40" height="22" rx="9" fill="#fafafa" stroke="#333" stroke-width="1.5"/>'
            '<ellipse cx="22" cy="30" rx="6" ry="5" fill="#333"/>'
            '<ellipse cx="38" cy="36" rx="5" ry="4" fill="#333"/>'
            '<rect x="46" y="16" width="14" height="16" rx="6" fill="#fafafa" stroke="#333" stroke-width="1.5"/>'
            '<ellipse cx="54" cy="30" rx="6" ry="4" fill="#f2a7b5"/>'
            '<path d="M47 17 l-3 -6 M59 17 l3 -6" stroke="#a08050" stroke-width="2.5"/>')


def _horse() -> str:
    return (_legs("#7a4a22", (14, 22, 36, 44), 38, 56) +
            '<ellipse cx="29" cy="32" rx="19" ry="10" fill="#9c5f2e"/>'
            '<path d="M42 28 l8 -16 l8 4 l-4 18 z" fill="#9c5f2e"/>'
            '<path d="M44 14 l4 -6 l2 6" fill="#9c5f2e"/>'
            '<path d="M42 14 q-6 6 -4 14" stroke="#3b2412" stroke-width="4" fill="none"/>'
            '<path d="M10 30 q-6 8 -2 18" stroke="#3b2412" stroke-width="4" fill="none"/>'
            '<circle cx="52" cy="17" r="1.6" fill="#222"/>')


def _dog(scale: float, colour: str) -> str:
    return (f'<g transform="translate(32 40) scale({scale}) translate(-32 -40)">' +
            _legs(colour, (16, 24, 36, 44), 38, 54) +
            f'<ellipse cx="30" cy="34" rx="17" ry="9" fill="{colour}"/>'
            f'<circle cx="48" cy="24" r="9" fill="{colour}"/>'
            '<ellipse cx="44" cy="22" rx="4" ry="8" fill="#5a3a1a"/>'
            '<circle cx="51" cy="22" r="1.6" fill="#222"/><circle cx="57" cy="26" r="2" fill="#222"/>'
            f'<path d="M13 30 q-6 -6 -3 -12" stroke="{colour}" stroke-width="3" fill="none"/></g>')


def _fox() -> str:
    return ('<path d="M8 44 q10 -20 26 -14 l8 -4 l6 -12 l4 12 l6 4 l-8 8 q-4 12 -20 12 z" fill="#e0701e"/>'
            '<path d="M8 44 q-4 8 6 8 q8 0 10 -6 z" fill="#fff"/>'
            '<path d="M54 34 l-6 4 l2 -6 z" fill="#fff"/>'
            '<circle cx="48" cy="26" r="1.7" fill="#222"/>')


def _wolf() -> str:
    return ('<path d="M6 46 q8 -22 28 -16 l6 -4 l4 -14 l5 12 l5 -2 l2 10 l-8 8 q-6 10 -22 10 z" fill="#7d8590"/>'
            '<path d="M40 40 l10 -2 l-4 6 z" fill="#e8e8e8"/>'
            '<circle cx="46" cy="26" r="1.8" fill="#ffd400"/>')


DRAW: dict[str, Callable[[], str]] = {
    "rabbit": _rabbit,
    "sheep": _sheep,
    "pig": _pig,
    "cow": _cow,
    "horse": _horse,
    "small_dog": lambda: _dog(0.8, "#d9b48a"),
    "big_dog": lambda: _dog(1.0, "#8a5a2b"),
    "fox": _fox,
    "wolf": _wolf,
}


def svg(name: str) -> str:
    """The SVG document of icon ``name``; KeyError for an unknown one."""
    body = DRAW[name]()
    return _HEAD.format(name=name) + body + "</svg>"
