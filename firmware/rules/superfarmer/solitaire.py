"""The solitaire Markov decision process of Super Farmer, solved by value iteration.

One farm plays alone, so the main herd is always the full set minus the farm and
the state is the farm alone. Before each roll the farmer makes at most one
exchange (or none); a farm complete after the exchange wins that turn, one
complete after the roll wins too. We minimise the expected number of turns to
win, counting every turn.

The full state space (61 x 25 x 21 x 13 x 7 x 5 x 3, 44 million farms) is too big
for a quick solve, so the model caps each count (:data:`CAPS`, lowered to the herd's
own sizes by :func:`caps_for`): animals beyond a cap are treated as if they went back
to the herd. That only ever makes the model pessimistic, and the caps are large
enough that raising them (to sheep 12, pig 8, cow 4) leaves the expected turns from
an empty farm unchanged to four decimals (measured, see ``docs/rules.md``). The
transitions are computed with numpy, separately per die face pair, and checked
against :func:`settle` in the tests.

This module is pure: :func:`solve` computes, :meth:`Model.to_bytes` and
:meth:`Model.from_bytes` turn a solved model into bytes and back, and
:func:`model_for` remembers models in memory. Files (the shipped tables and the
cache of solved ones) are ``farmbox.firmware.box.solved_tables``' business.

>>> tiny = solve(CLASSIC, (6, 2, 2, 1, 2, 1, 1))
>>> again = Model.from_bytes(tiny.to_bytes(), CLASSIC)  # the values are stored as float32
>>> round(again.expected_turns(Herd()), 3) == round(tiny.expected_turns(Herd()), 3)
True
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..errors import InvalidHerd, InvalidState
from .dice import GREEN, RED, Roll
from .exchanges import Exchange, legal_exchanges
from .herd import ANIMALS, LIVESTOCK, Herd
from .variants import CLASSIC, Rules

#: Count caps per animal (rabbit, sheep, pig, cow, horse, small dog, big dog).
CAPS: tuple[int, ...] = (60, 8, 6, 3, 2, 2, 2)

#: Version of the table layout, part of every table's :meth:`Model.key`.
TABLE_VERSION = 1

R, S, P, C, H, SD, BD = range(7)

Counts = npt.NDArray[np.int64]
Values = npt.NDArray[np.float64]
#: Flat indices of successor farms, one per farm.
Successors = npt.NDArray[np.int32]
#: Told how far a solve has got, as a fraction 0..1 (an estimate while it converges).
SolveProgress = Callable[[float], None]


def caps_for(rules: Rules) -> tuple[int, ...]:
    """The model's caps for a variant: :data:`CAPS`, but never above the herd's own sizes.

    >>> caps_for(CLASSIC.with_options(herd_sizes=Herd.parse(
    ...     "rabbit=30,sheep=12,pig=10,cow=6,horse=3,small_dog=2,big_dog=1")))
    (30, 8, 6, 3, 2, 2, 1)
    """
    return tuple(min(c, n) for c, n in zip(CAPS, rules.herd_sizes.counts))


def _distinct_rolls() -> list[tuple[Roll, int]]:
    weights: dict[Roll, int] = {}
    for g in GREEN:
        for r in RED:
            roll = Roll(g, r)
            weights[roll] = weights.get(roll, 0) + 1
    return sorted(weights.items(), key=lambda kv: str(kv[0]))


@dataclass(frozen=True, eq=False)
class Model:
    """A solved (capped) solitaire model: expected turns and best exchange per farm."""

    rules: Rules
    caps: tuple[int, ...]
    #: Every exchange that fits inside the caps; the policy indexes into it.
    exchanges: tuple[Exchange, ...]
    #: Expected turns to win from each farm at the start of a turn (0 when complete).
    turns: Values
    #: Expected turns when the farm rolls now, for each farm (1 when complete: won by exchange).
    after: Values
    #: Index into :attr:`exchanges` of the best exchange per farm, -1 for none.
    policy: Counts
    iterations: int = 0
    _gives: Counts = field(init=False, repr=False)
    _takes: Counts = field(init=False, repr=False)

    def __post_init__(self) -> None:
        width = (len(self.exchanges), 7)
        object.__setattr__(self, "_gives", np.array(
            [e.gives.counts for e in self.exchanges], dtype=np.int64).reshape(width))
        object.__setattr__(self, "_takes", np.array(
            [e.takes.counts for e in self.exchanges], dtype=np.int64).reshape(width))

    # -- lookups ----------------------------------------------------------
    def index(self, farm: Herd) -> tuple[int, ...]:
        """The model state of a real farm (counts beyond a cap are capped)."""
        return tuple(min(n, c) for n, c in zip(farm.counts, self.caps))

    def expected_turns(self, farm: Herd) -> float:
        """Expected turns to win from ``farm`` at the start of a turn, playing the policy."""
        return float(self.turns[self.index(farm)])

    def expected_turns_after(self, farm: Herd) -> float:
        """Expected turns to win counting this turn, if ``farm`` is what rolls now."""
        return float(self.after[self.index(farm)])

    def best(self, farm: Herd) -> Exchange | None:
        """The policy's exchange for ``farm`` (it may need checking against the real herd)."""
        k = int(self.policy[self.index(farm)])
        return None if k < 0 else self.exchanges[k]

    def options(self, farm: Herd, stock: Herd) -> list[tuple[float, Exchange | None]]:
        """Expected turns (counting this one) of rolling now and of every payable exchange.

        Only exchanges that fit inside the caps are ranked; best first.
        """
        gives, takes = self._gives, self._takes
        here = np.array(self.index(farm))
        ok = ((here >= gives) & (np.array(stock.counts) >= takes)
              & (here - gives + takes <= np.array(self.caps))).all(axis=1)
        rows = np.nonzero(ok)[0]
        after = here - gives[rows] + takes[rows]
        values = self.after[tuple(after.T)]
        ranked: list[tuple[float, Exchange | None]] = [(float(self.after[tuple(here)]), None)]
        ranked += [(float(v), self.exchanges[int(i)]) for v, i in zip(values, rows)]
        ranked.sort(key=lambda vi: vi[0])
        return ranked

    # -- as bytes ---------------------------------------------------------
    @staticmethod
    def key(rules: Rules, caps: tuple[int, ...] = CAPS) -> str:
        """A short name for the rules options and caps the model was solved for."""
        text = json.dumps({"options": {k: v for k, v in rules.options().items()
                                       if k in ("herd_sizes", "wolf_spares")},
                           "caps": list(caps), "version": TABLE_VERSION}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def to_bytes(self) -> bytes:
        """The policy and values as a compressed ``.npz`` image (what a table file holds)."""
        out = io.BytesIO()
        np.savez_compressed(
            out, policy=self.policy.astype(np.int16),
            turns=self.turns.astype(np.float32), after=self.after.astype(np.float32),
            caps=np.array(self.caps), iterations=np.array(self.iterations),
            exchanges=np.array([str(e) for e in self.exchanges]),
            key=np.array(self.key(self.rules, self.caps)))
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, rules: Rules = CLASSIC) -> "Model":
        """A model from :meth:`to_bytes`; bytes for other rules or caps, or damaged bytes,
        are an :class:`InvalidState`."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as table:
                caps = tuple(int(c) for c in table["caps"])
                if str(table["key"]) != cls.key(rules, caps):
                    raise InvalidState("policy table is for other rules or caps")
                model = cls(rules, caps, tuple(Exchange.parse(str(t)) for t in table["exchanges"]),
                            table["turns"].astype(np.float64), table["after"].astype(np.float64),
                            table["policy"].astype(np.int64), int(table["iterations"]))
        except InvalidState:
            raise
        except (OSError, KeyError, ValueError, EOFError) as exc:
            raise InvalidState(f"unreadable policy table ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
        shape = tuple(c + 1 for c in caps)
        if any(a.shape != shape for a in (model.turns, model.after, model.policy)):
            raise InvalidState("unreadable policy table (arrays of the wrong shape)")
        return model


_MODELS: dict[tuple[str, tuple[int, ...]], Model] = {}


def remembered(rules: Rules, caps: tuple[int, ...] | None = None) -> Model | None:
    """The model for ``rules`` if this process already has it, else None."""
    caps = caps_for(rules) if caps is None else caps
    model = _MODELS.get((Model.key(rules, caps), caps))
    if model is not None and model.rules != rules:
        # Same herd and wolf: the same table serves a variant that differs elsewhere.
        model = Model(rules, model.caps, model.exchanges, model.turns, model.after,
                      model.policy, model.iterations)
    return model


def remember(model: Model) -> Model:
    """Keep ``model`` for :func:`model_for` (the box does this after reading a table)."""
    _MODELS[(Model.key(model.rules, model.caps), model.caps)] = model
    return model


def model_for(rules: Rules = CLASSIC, caps: tuple[int, ...] | None = None,
              progress: SolveProgress | None = None) -> Model:
    """The solved model for ``rules``: remembered in this process, else solved now.

    ``caps`` defaults to :func:`caps_for` the variant's herd. Solving the classic
    caps takes about 20 s here; ``farmbox.firmware.box.solved_tables.model_for``
    reads the shipped tables and the cache first.
    """
    caps = caps_for(rules) if caps is None else caps
    model = remembered(rules, caps)
    return model if model is not None else remember(solve(rules, caps, progress=progress))


# ---------------------------------------------------------------------------
# Solving


def _transition_parts(rules: Rules, caps: tuple[int, ...], roll: Roll
                      ) -> list[tuple[tuple[slice, ...], list[Counts]]]:
    """Per sub-box of farms, the index map of each count after settling ``roll``.

    Settling is separable per animal once we know whether a small dog meets the
    fox and a big dog meets the wolf, so the farms split into at most four boxes.
    """
    full = rules.herd_sizes.counts
    shown = roll.shown()
    spares = rules.wolf_spares
    sd_parts = [(0, 1), (1, caps[SD] + 1)] if roll.fox else [(0, caps[SD] + 1)]
    bd_parts = [(0, 1), (1, caps[BD] + 1)] if roll.wolf else [(0, caps[BD] + 1)]
    parts: list[tuple[tuple[slice, ...], list[Counts]]] = []
    for sd_lo, sd_hi in sd_parts:
        for bd_lo, bd_hi in bd_parts:
            if sd_hi <= sd_lo or bd_hi <= bd_lo:
                continue
            fox_eats = roll.fox and sd_lo == 0
            wolf_eats = roll.wolf and bd_lo == 0
            box: list[slice] = []
            maps: list[Counts] = []
            for k in range(7):
                lo, hi = (sd_lo, sd_hi) if k == SD else (bd_lo, bd_hi) if k == BD else (0, caps[k] + 1)
                x = np.arange(lo, hi)
                if k == R and fox_eats:
                    x = np.zeros_like(x)
                if k == SD and roll.fox and not fox_eats:
                    x = x - 1
                if k == BD and roll.wolf and not wolf_eats:
                    x = x - 1
                if wolf_eats and k != BD and ANIMALS[k] not in spares:
                    x = np.zeros_like(x)
                n = shown.get(ANIMALS[k], 0) if k < 5 else 0
                if n:
                    x = np.minimum(x + (x + n) // 2, full[k])
                maps.append(np.minimum(x, caps[k]))
                box.append(slice(lo, hi))
            parts.append((tuple(box), maps))
    return parts


def roll_successors(rules: Rules, caps: tuple[int, ...]) -> list[tuple[Successors, float]]:
    """Per distinct roll: the flat index of every farm's successor, and the roll's probability."""
    import numpy as np

    shape = tuple(c + 1 for c in caps)
    flat_index = np.arange(int(np.prod(shape))).reshape(shape)
    out: list[tuple[Successors, float]] = []
    for roll, w in _distinct_rolls():
        idx = np.empty(shape, dtype=np.int32)
        for box, maps in _transition_parts(rules, caps, roll):
            idx[box] = flat_index[np.ix_(*maps)]
        out.append((idx.ravel(), w / 144))
    return out


def _check_herd(rules: Rules, caps: tuple[int, ...]) -> None:
    full = rules.herd_sizes.counts
    for k, (c, f) in enumerate(zip(caps, full)):
        if not 0 <= c <= f:
            raise ValueError(f"cap for {ANIMALS[k].key} must be 0..{f}, not {c}")
    missing = [a.key for a in LIVESTOCK if not full[a]]
    if missing:
        raise InvalidHerd(f"herd {rules.herd_sizes}: no {missing[0]} in the main herd, "
                          "so no farm can ever be complete")


def _winnable(complete: npt.NDArray[np.bool_], successors: list[tuple[Successors, float]],
              boxes: list[tuple[tuple[slice, ...], tuple[slice, ...]]]) -> npt.NDArray[np.bool_]:
    """Farms from which some run of exchanges and rolls completes the farm (a fixpoint)."""
    can = complete.copy()
    while True:
        flat = can.ravel()
        new = can.copy()
        reach = np.zeros(flat.size, dtype=bool)
        for idx, _ in successors:
            reach |= flat[idx]
        new |= reach.reshape(can.shape)
        for src, dst in boxes:
            new[src] |= can[dst]
        if np.array_equal(new, can):
            return can
        can = new


def solve(rules: Rules = CLASSIC, caps: tuple[int, ...] | None = None, tol: float = 1e-9,
          sweeps: int = 20, max_rounds: int = 500,
          progress: SolveProgress | None = None) -> Model:
    """Solve the capped solitaire model by modified policy iteration.

    Each round improves the policy (the best exchange per farm, a min over
    shifted boxes of the array) and then evaluates it with ``sweeps`` cheap
    sweeps; it stops when a round changes no value by more than ``tol``.
    ``progress`` is told the fraction done (estimated from how fast the rounds
    converge). A herd in which some farm can never be completed (no horse at
    all, too few animals to trade up) is an :class:`InvalidHerd`.
    """
    caps = caps_for(rules) if caps is None else tuple(caps)
    _check_herd(rules, caps)
    shape = tuple(c + 1 for c in caps)
    grids = np.indices(shape, sparse=True)
    complete = np.broadcast_to(
        (grids[R] > 0) & (grids[S] > 0) & (grids[P] > 0) & (grids[C] > 0) & (grids[H] > 0),
        shape)

    successors = roll_successors(rules, caps)

    limit = Herd(tuple(caps))  # type: ignore[arg-type]
    exchanges = tuple(legal_exchanges(limit, limit))
    boxes: list[tuple[tuple[slice, ...], tuple[slice, ...]]] = []
    for ex in exchanges:
        g, t = ex.gives.counts, ex.takes.counts
        src = tuple(slice(g[k], caps[k] - t[k] + 1) for k in range(7))
        dst = tuple(slice(t[k], caps[k] - g[k] + 1) for k in range(7))
        boxes.append((src, dst))

    stuck = ~_winnable(np.array(complete), successors, boxes)
    if stuck.any():
        farm = Herd(tuple(int(i) for i in np.argwhere(stuck)[0]))  # type: ignore[arg-type]
        raise InvalidHerd(f"herd {rules.herd_sizes}: {int(stuck.sum())} farms (such as "
                          f"{str(farm) or 'an empty one'}) can never be completed, "
                          "so the advisor has no answer")
    if progress is not None:
        progress(0.05)

    complete_flat = complete.ravel()

    def rolled(v: Values) -> Values:
        """Expected turns when each farm rolls now (1 + expectation; 1 if already complete)."""
        flat = v.ravel()
        acc = np.ones(flat.size)
        for idx, p in successors:
            acc += p * flat[idx]
        acc[complete_flat] = 1.0
        return acc.reshape(shape)

    v: Values = np.zeros(shape)
    policy: Counts = np.full(shape, -1, dtype=np.int64)
    flat_index = np.arange(v.size).reshape(shape)
    rounds = 0
    first_delta = 0.0
    for rounds in range(1, max_rounds + 1):  # noqa: B007 (reported after the loop)
        q = rolled(v)
        # Policy improvement: the best of "no exchange" and every exchange.
        best = q.copy()
        choice = np.full(shape, -1, dtype=np.int64)
        for i, (src, dst) in enumerate(boxes):
            cand = q[dst]
            region = best[src]
            better = np.less(cand, region - 1e-12)
            np.copyto(region, cand, where=better)
            np.copyto(choice[src], i, where=better)
        new_v = np.where(complete, 0.0, best)
        policy = choice
        delta = float(np.max(np.abs(new_v - v)))
        v = new_v
        if delta < tol:
            break
        if progress is not None:
            # Deltas shrink geometrically once the values have risen: log scale.
            first_delta = max(first_delta, delta)
            done = math.log(first_delta / delta) / math.log(first_delta / tol)
            progress(0.05 + 0.9 * min(1.0, done))
        # Policy evaluation sweeps with the policy fixed.
        target = flat_index.copy()
        for i, (src, dst) in enumerate(boxes):
            np.copyto(target[src], flat_index[dst], where=policy[src] == i)
        flat_target = target.ravel()
        for _ in range(sweeps):
            v = np.where(complete, 0.0, rolled(v).ravel()[flat_target].reshape(shape))
    else:
        raise InvalidHerd(f"herd {rules.herd_sizes}: the advisor's model did not settle "
                          f"in {max_rounds} rounds")
    after = rolled(v)
    if progress is not None:
        progress(1.0)
    return Model(rules, caps, exchanges, v, after, np.where(complete, -1, policy), rounds)


__all__ = ["CAPS", "Model", "SolveProgress", "caps_for", "model_for", "remember",
           "remembered", "roll_successors", "solve"]
