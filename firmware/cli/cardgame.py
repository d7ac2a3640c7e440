"""``farmbox cardgame score|simulate``: the card game's scorekeeper and bot tournaments."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from farmbox.firmware.cli import CommandError
from farmbox.firmware.rules.cardgame.bots import BOTS
from farmbox.firmware.rules.cardgame.game import PREDATOR_MODES, GameOptions
from farmbox.firmware.rules.cardgame.scorecard import Tally, read_scorecard, tally
from farmbox.firmware.rules.cardgame.teams import default_teams
from farmbox.firmware.rules.cardgame.tournament import Standings, lineup, tournament


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cardgame", help="Super Farmer: The Card Game: scorekeeper and bots")
    csub = p.add_subparsers(dest="action", metavar="ACTION")
    csub.required = True
    score = csub.add_parser("score", help="score one round from a TOML/JSON file of farms")
    score.add_argument("farms", type=Path, metavar="FARMS_FILE")
    score.add_argument("--json", action="store_true", help="machine-readable output")
    score.set_defaults(func=cmd_score)
    sim = csub.add_parser("simulate", help="bot games with win rates per seat and per bot")
    sim.add_argument("--players", type=int, default=4, help="2-6 farmers (default 4)")
    sim.add_argument("--bots", default="greedy,spoiler,random",
                     help=f"comma-separated line-up, cycled over the seats ({', '.join(BOTS)})")
    sim.add_argument("--games", type=int, default=200)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--predators", choices=PREDATOR_MODES, default="off",
                     help="predator mode: off, token (toss each round) or hard (both)")
    sim.add_argument("--advanced-water", action="store_true")
    sim.add_argument("--teams", type=int, choices=(2, 3), metavar="SIZE",
                     help="team mode with teams of SIZE seated alternately (4 or 6 farmers)")
    sim.add_argument("--json", action="store_true")
    sim.set_defaults(func=cmd_simulate)


#: A FARMS file is a few kilobytes; anything past this is not one.
MAX_FARMS_BYTES = 1 << 20
#: Brackets a FARMS file nests (a card in a column in a farmer is 3-4); deeper is refused
#: before the parser, which recurses, sees it.
MAX_NESTING = 16


def nesting(text: str, toml: bool) -> tuple[int, int]:
    r"""The deepest ``[``/``{`` nesting outside strings (and TOML comments), and its line.

    >>> nesting('{"a": [[1], {"b": "[[["}]}', toml=False)
    (3, 1)
    >>> nesting("a = [ # [[[\n  [1] ]", toml=True)
    (2, 2)
    """
    depth = deepest = 0
    line = deepest_line = 1
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#" and toml:
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif ch == '"' or (ch == "'" and toml):
            triple = toml and text.startswith(ch * 3, i)
            quote = ch * 3 if triple else ch
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                if text[i] == "\\" and ch == '"':
                    i += 1
                elif text[i] == "\n":
                    line += 1
                i += 1
            i += len(quote)
            continue
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif ch in "]}":
            depth -= 1
        i += 1
    return deepest, deepest_line


def load_farms_file(path: Path) -> dict[str, Any]:
    """Parse a FARMS file: .json as JSON, anything else as TOML (at most 1 MiB, 16 levels deep)."""
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_FARMS_BYTES + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FARMS_BYTES:
        raise CommandError(f"{path}: larger than {MAX_FARMS_BYTES // 1024} KiB, not a FARMS file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: not valid {kind}: not UTF-8 text ({exc.reason} at byte "
                           f"{exc.start})") from None
    depth, line = nesting(text, toml=kind == "TOML")
    if depth > MAX_NESTING:
        raise CommandError(f"{path}: line {line}: brackets nested {depth} deep, a FARMS file "
                           f"needs at most {MAX_NESTING}")
    try:
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CommandError(f"{path}: not valid {kind}: {str(exc).splitlines()[0]}") from None
    except RecursionError:  # the scan above should have caught it; never a traceback
        raise CommandError(f"{path}: brackets nested too deeply") from None
    if not isinstance(data, dict):
        raise CommandError(f"{path}: expected a table at the top")
    return data


def cmd_score(args: argparse.Namespace) -> int:
    data = load_farms_file(args.farms)
    try:
        result = tally(read_scorecard(data))
    except ValueError as exc:
        raise CommandError(f"{args.farms}: {exc}") from None
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print("\n".join(describe(result)))
    return 0


def _names(values: dict[str, int], sign: bool = False) -> str:
    return ", ".join(f"{k} {v:+d}" if sign else f"{k} {v}" for k, v in values.items()) or "-"


def describe(t: Tally) -> list[str]:
    """The round's scoring, step by step, as lines of text."""
    r = t.round
    out = ["Phase 2: gifts"]
    out += [f"  {g.farmer}: {g.card} -> leaves the game (no column to join)" if g.column is None
            else f"  {g.farmer}: {g.card} -> {g.column.value} column"
            + (f", cabbage +{g.cabbage}" if g.cabbage else "") for g in t.gifts] or ["  (none)"]
    if r.attacks:
        out.append("Predators")
        for a in r.attacks:
            line = f"  {a.predator.value} on {a.animal.value}: dogs {_names(a.dogs)}"
            if not a.attacked:
                line += " -> no attack (all equal)"
            else:
                losses = [f"{n} loses {', '.join(map(str, a.lost[n]))}" for n in a.lost]
                bare = [n for n in a.attacked if n not in a.lost]
                if bare:
                    losses.append(f"no {a.animal.value} column to lose: {', '.join(bare)}")
                line += " -> " + "; ".join(losses)
            out.append(line)
    out.append("Columns")
    for c in r.columns:
        shown = {k: v for k, v in c.icons.items() if v}
        if not shown:
            continue
        out.append(f"  {c.animal.value}: icons {_names(shown)} -> "
                   f"{' and '.join(c.leaders)} +{c.points}")
    w = r.water
    out.append("Water (advanced)" if w.advanced else "Water")
    if w.declared is not None:
        out.append(f"  declared {_names(w.declared)}")
    out.append(f"  {_names(w.points, sign=True)}")
    out.append("Cats")
    out.append(f"  {_names({k: -v for k, v in r.cats.items() if v}, sign=True)}")
    out.append("Totals")
    for name, total in t.totals.items():
        p = r.parts(name)
        out.append(f"  {name}: {t.before[name]} before, cabbage +{t.cabbage[name]}, "
                   f"columns +{p['columns']}, water +{p['water']}, cats {p['cats']:+d} "
                   f"-> {total}")
    for team, total in t.teams.items():
        out.append(f"  team {team}: {total}")
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise CommandError(f"unknown bot {unknown[0]!r} (expected {', '.join(BOTS)})")
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    teams = default_teams(args.players, args.teams) if args.teams else ()
    options = GameOptions(args.advanced_water, args.predators, teams)
    standings = Standings(lineup(args.players, bots))
    games = tournament(args.players, bots, args.games, args.seed, options)
    for seats, result in tqdm(games, total=args.games, desc="games", unit="game",
                              file=sys.stderr):
        standings.record(seats, result)
    summary: dict[str, Any] = standings.as_dict()
    summary.update(players=args.players, seed=args.seed, predators=args.predators,
                   advanced_water=args.advanced_water, teams=[list(t) for t in teams])
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{args.games} games, {args.players} farmers, line-up {','.join(standings.lineup)} "
          f"(rotating seats), seed {args.seed}, predators {args.predators}"
          f"{', advanced water' if args.advanced_water else ''}"
          f"{', teams ' + str(teams) if teams else ''}")
    print("per seat (seat 1 starts round 1):")
    for s in summary["seats"]:
        print(f"  seat {s['seat']}: win rate {s['win_rate']:6.1%}  mean score {s['mean_score']:.1f}")
    print("per bot:")
    for b in summary["bots"]:
        print(f"  {b['bot']:<8} win rate {b['win_rate']:6.1%}  mean score {b['mean_score']:.1f}"
              f"  ({b['seat_games']} seat-games)")
    print(f"shared wins: {standings.shared}")
    return 0
