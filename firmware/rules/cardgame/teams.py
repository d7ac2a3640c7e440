"""Team mode: 4 or 6 farmers, teams of 2 (or 3 with 6), partners never side by side.

>>> default_teams(6, 3)
((0, 2, 4), (1, 3, 5))
>>> check_teams(4, [(0, 1), (2, 3)])
Traceback (most recent call last):
...
farmbox.firmware.rules.cardgame.cards.CardGameError: partners 0 and 1 sit side by side
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CardGameError


def check_teams(players: int, teams: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Validate teams of seat numbers (seat i sits between i-1 and i+1, round the table)."""
    if players not in (4, 6):
        raise CardGameError(f"team mode is for 4 or 6 farmers, not {players}")
    out = tuple(tuple(team) for team in teams)
    seats = sorted(s for team in out for s in team)
    if seats != list(range(players)):
        raise CardGameError(f"teams must hold every seat 0-{players - 1} exactly once")
    sizes = {len(team) for team in out}
    if len(sizes) != 1 or sizes - {2, 3} or (players == 4 and sizes != {2}):
        raise CardGameError("teams are all of 2 farmers, or of 3 with 6 farmers")
    for team in out:
        for a in team:
            for b in team:
                if a < b and (b - a) % players in (1, players - 1):
                    raise CardGameError(f"partners {a} and {b} sit side by side")
    return out


def default_teams(players: int, size: int = 2) -> tuple[tuple[int, ...], ...]:
    """Teams seated alternately: 4 -> (0,2),(1,3); 6 -> pairs across the table or two threes."""
    if players == 4 and size == 2:
        teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    elif players == 6 and size == 2:
        teams = ((0, 3), (1, 4), (2, 5))
    elif players == 6 and size == 3:
        teams = ((0, 2, 4), (1, 3, 5))
    else:
        raise CardGameError(f"no teams of {size} for {players} farmers")
    return check_teams(players, teams)


def team_of(teams: Sequence[Sequence[int]], seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s team (just the seat itself without teams)."""
    for team in teams:
        if seat in team:
            return tuple(team)
    return (seat,)
