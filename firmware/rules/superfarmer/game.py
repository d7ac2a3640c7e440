"""A game of Super Farmer for 1-6 farms: turn order, one exchange per turn, undo.

>>> from farmbox.firmware.rules.superfarmer.dice import Roll
>>> g = Game(2)
>>> _ = g.roll(Roll.parse("rabbit,rabbit"))
>>> str(g.state.farms[0]), g.state.current
('rabbit=1', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import IllegalAction, IllegalExchange, InvalidState
from .dice import Roll
from .exchanges import Exchange, apply_exchange, legal_exchanges
from .herd import ANIMALS, Animal, Herd
from .settle import Event, EventKind, Settlement, settle
from .variants import CLASSIC, Rules, variant


@dataclass(frozen=True)
class GameState:
    """Everything needed to resume a game (immutable, JSON-serialisable)."""

    rules: Rules
    farms: tuple[Herd, ...]
    stock: Herd
    current: int = 0
    exchanged: bool = False
    #: Players in the order they completed their farms.
    places: tuple[int, ...] = ()
    over: bool = False
    #: Turns each player has taken (a turn ends with a roll or a win).
    turns: tuple[int, ...] = ()
    last_roll: Roll | None = None
    last_events: tuple[Event, ...] = ()

    @property
    def players(self) -> int:
        return len(self.farms)

    @property
    def farm(self) -> Herd:
        """The farm whose turn it is."""
        return self.farms[self.current]

    @property
    def winner(self) -> int | None:
        return self.places[0] if self.places else None

    def check(self) -> None:
        """Raise :class:`InvalidState` unless farms + herd hold exactly the full set."""
        total = self.stock
        for f in self.farms:
            total = total + f
        if total != self.rules.herd_sizes:
            raise InvalidState(
                f"farms and main herd hold {total}, expected {self.rules.herd_sizes}"
            )
        if not 1 <= self.players <= 6:
            raise InvalidState(f"a game has 1-6 farms, not {self.players}")
        if not 0 <= self.current < self.players:
            raise InvalidState(f"current player {self.current} out of range")
        if len(self.turns) != self.players:
            raise InvalidState(f"turns for {len(self.turns)} players, expected {self.players}")
        if len(set(self.places)) != len(self.places) or not all(
                0 <= p < self.players for p in self.places):
            raise InvalidState(f"bad places {list(self.places)}")
        if any(t < 0 for t in self.turns):
            raise InvalidState(f"negative turn count in {list(self.turns)}")

    # -- serialisation -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.rules.name,
            "options": self.rules.options(),
            "farms": [str(f) for f in self.farms],
            "stock": str(self.stock),
            "current": self.current,
            "exchanged": self.exchanged,
            "places": list(self.places),
            "over": self.over,
            "turns": list(self.turns),
            "last_roll": str(self.last_roll) if self.last_roll else None,
            "last_events": [e.as_dict() for e in self.last_events],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameState":
        try:
            opts = d["options"]
            rules = variant(d["variant"]).with_options(
                herd_sizes=Herd.from_mapping(opts["herd_sizes"]),
                wolf_spares=frozenset(Animal.from_key(k) for k in opts["wolf_spares"]),
                starting=Herd.from_mapping(opts["starting"]),
                play_on=bool(opts["play_on"]),
                player_exchanges=bool(opts["player_exchanges"]),
            )
            events = tuple(
                Event(EventKind(e["kind"]),
                      Animal.from_key(e["animal"]) if "animal" in e else None,
                      int(e.get("count", 0)))
                for e in d.get("last_events", [])
            )
            state = cls(
                rules=rules,
                farms=tuple(Herd.parse(f) for f in d["farms"]),
                stock=Herd.parse(d["stock"]),
                current=int(d["current"]),
                exchanged=bool(d["exchanged"]),
                places=tuple(int(p) for p in d["places"]),
                over=bool(d["over"]),
                turns=tuple(int(t) for t in d["turns"]),
                last_roll=Roll.parse(d["last_roll"]) if d.get("last_roll") else None,
                last_events=events,
            )
        except InvalidState:
            raise
        except KeyError as exc:
            raise InvalidState(f"bad saved game: missing {exc}") from None
        except (TypeError, AttributeError, ValueError) as exc:
            # ValueError covers InvalidHerd/InvalidRoll and bad numbers or event kinds.
            raise InvalidState(f"bad saved game: {str(exc).splitlines()[0] if str(exc) else exc!r}") from None
        state.check()
        return state


def new_state(players: int, rules: Rules = CLASSIC) -> GameState:
    """A fresh game: every farm takes the variant's starting animals from the herd."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    farms = (rules.starting,) * players
    return GameState(rules, farms, rules.stock_for(*farms), turns=(0,) * players)


class Game:
    """A mutable game with an undo stack over immutable :class:`GameState`."""

    def __init__(self, players: int = 1, rules: Rules = CLASSIC,
                 state: GameState | None = None) -> None:
        self._state = state if state is not None else new_state(players, rules)
        self._history: list[GameState] = []

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def rules(self) -> Rules:
        return self._state.rules

    def _require_playing(self) -> None:
        if self._state.over:
            raise IllegalAction("the game is over")

    def legal_exchanges(self, partner: int | None = None) -> list[Exchange]:
        """The exchanges the current farm may make now (with the herd or ``partner``).

        Exactly what :meth:`exchange` accepts (with the partner's consent): nothing
        after the turn's exchange or the end, and nothing with a partner the rules
        refuse (classic rules, the farm itself, a finished farm, no such player).
        """
        s = self._state
        if s.over or s.exchanged:
            return []
        if partner is None:
            return legal_exchanges(s.farm, s.stock)
        if self._partner_refusal(partner) is not None:
            return []
        return legal_exchanges(s.farm, s.farms[partner])

    def _partner_refusal(self, partner: int) -> str | None:
        """Why the current farm may not trade with ``partner`` (None: it may, with consent)."""
        s = self._state
        if not s.rules.player_exchanges:
            return f"{s.rules.name}: exchanges are with the main herd only"
        if not 0 <= partner < s.players or partner == s.current:
            return f"no such partner: player {partner + 1}"
        if partner in s.places:
            return f"player {partner + 1} has finished"
        return None

    def exchange(self, exchange: Exchange, partner: int | None = None,
                 consent: bool = False) -> tuple[Event, ...]:
        """Make the turn's one exchange with the main herd or (compact) a player."""
        self._require_playing()
        s = self._state
        if s.exchanged:
            raise IllegalExchange("only one exchange per turn")
        farms = list(s.farms)
        stock = s.stock
        if partner is None:
            farms[s.current], stock = apply_exchange(s.farm, s.stock, exchange)
        else:
            refusal = self._partner_refusal(partner)
            if refusal is not None:
                raise IllegalExchange(refusal)
            if not consent:
                raise IllegalExchange(f"player {partner + 1} did not agree")
            farms[s.current], farms[partner] = apply_exchange(s.farm, s.farms[partner], exchange)
        events = [Event(EventKind.EXCHANGED, None, 0)]
        new = replace(s, farms=tuple(farms), stock=stock, exchanged=True)
        if partner is not None and farms[partner].is_complete() and partner not in s.places:
            # A trade can complete the partner's farm too: that farm wins at once.
            new = replace(new, places=new.places + (partner,), over=not s.rules.play_on)
        if new.farm.is_complete():
            events.append(Event(EventKind.WON))
            new = self._finish_turn(replace(new, last_roll=None, last_events=tuple(events)))
        self._push(new)
        return tuple(events)

    def roll(self, roll: Roll) -> Settlement:
        """Settle ``roll`` for the current farm and pass the turn."""
        self._require_playing()
        s = self._state
        result = settle(s.farm, s.stock, roll, s.rules)
        farms = list(s.farms)
        farms[s.current] = result.farm
        new = replace(s, farms=tuple(farms), stock=result.stock, last_roll=roll,
                      last_events=result.events)
        self._push(self._finish_turn(new))
        return result

    def _finish_turn(self, s: GameState) -> GameState:
        turns = list(s.turns)
        turns[s.current] += 1
        places = s.places
        if s.farm.is_complete() and s.current not in places:
            places = places + (s.current,)
        over = bool(places) and (
            not s.rules.play_on or s.players - len(places) <= (0 if s.players == 1 else 1)
        )
        if over and s.rules.play_on and len(places) < s.players:
            # The one farmer left takes the last place.
            places = places + tuple(p for p in range(s.players) if p not in places)
        nxt = s.current
        if not over:
            for step in range(1, s.players + 1):
                cand = (s.current + step) % s.players
                if cand not in places:
                    nxt = cand
                    break
        return replace(s, turns=tuple(turns), places=places, over=over, current=nxt,
                       exchanged=False)

    def _push(self, new: GameState) -> None:
        self._history.append(self._state)
        self._state = new

    def undo(self) -> GameState:
        """Take back the last exchange or roll."""
        if not self._history:
            raise IllegalAction("nothing to undo")
        self._state = self._history.pop()
        return self._state

    @property
    def can_undo(self) -> bool:
        return bool(self._history)


__all__ = ["ANIMALS", "Game", "GameState", "new_state"]
