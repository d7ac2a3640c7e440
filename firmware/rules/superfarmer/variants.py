"""Super Farmer's variants as data: :class:`Rules`, :data:`CLASSIC`, :data:`COMPACT`.

>>> CLASSIC.stock_for(Herd.parse("rabbit=5"))[Animal.RABBIT]
55
>>> variant("compact").starting
Herd.parse('rabbit=1')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import InvalidState
from .herd import Animal, Herd

FULL_HERD = Herd((60, 24, 20, 12, 6, 4, 2))


@dataclass(frozen=True)
class Rules:
    """A variant of Super Farmer, as data.

    Attributes name every option RULES.md asks each variant to expose.
    """

    name: str
    #: The main herd before anyone takes a starting animal (128 tokens in both editions).
    herd_sizes: Herd = FULL_HERD
    #: What the wolf leaves on an unprotected farm (dogs included where spared).
    wolf_spares: frozenset[Animal] = frozenset({Animal.HORSE, Animal.SMALL_DOG})
    #: Animals each farm takes from the main herd at the start.
    starting: Herd = Herd()
    #: After the first winner the others play on for places.
    play_on: bool = False
    #: The one exchange of a turn may be made with another consenting player.
    player_exchanges: bool = False
    min_players: int = 1
    max_players: int = 6

    def __post_init__(self) -> None:
        if Animal.BIG_DOG in self.wolf_spares:
            # A big dog is the wolf's own guard; "sparing" it is meaningless.
            object.__setattr__(self, "wolf_spares", self.wolf_spares - {Animal.BIG_DOG})

    def options(self) -> dict[str, object]:
        """The named options, JSON-ready."""
        return {
            "herd_sizes": self.herd_sizes.as_dict(),
            "wolf_spares": sorted(a.key for a in self.wolf_spares),
            "starting": self.starting.as_dict(),
            "play_on": self.play_on,
            "player_exchanges": self.player_exchanges,
        }

    def with_options(self, **changes: object) -> "Rules":
        """A copy with some options changed (``CLASSIC.with_options(play_on=True)``)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def total(self) -> Herd:
        return self.herd_sizes

    def stock_for(self, *farms: Herd) -> Herd:
        """The main herd when ``farms`` hold what they hold (all else is in the herd)."""
        stock = self.herd_sizes
        for farm in farms:
            try:
                stock = stock - farm
            except ValueError as exc:
                raise InvalidState(f"the main herd cannot account for the farms: {exc}") from None
        return stock


#: Seed 004's rules, the default: every farm starts empty; the wolf spares horses and small dogs.
CLASSIC = Rules(name="classic")
#: The compact edition (seed 001).
COMPACT = Rules(
    name="compact",
    wolf_spares=frozenset({Animal.HORSE, Animal.RABBIT, Animal.SMALL_DOG}),
    starting=Herd.of(rabbit=1),
    play_on=True,
    player_exchanges=True,
    min_players=2,
)
VARIANTS: dict[str, Rules] = {r.name: r for r in (CLASSIC, COMPACT)}


def variant(name: str) -> Rules:
    """Look up a variant by name; unknown names are a :class:`ValueError`."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r} (expected {' or '.join(VARIANTS)})") from None


__all__ = ["CLASSIC", "COMPACT", "FULL_HERD", "VARIANTS", "Rules", "variant"]
