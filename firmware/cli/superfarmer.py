"""Super Farmer commands: odds, settle, simulate, advise."""

from __future__ import annotations

import argparse
import json

from firmware.rules.dice import Roll
from firmware.rules.herd import Herd
from firmware.rules.odds import odds
from firmware.rules.superfarmer import VARIANTS, settle, variant


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="classic", choices=sorted(VARIANTS),
                   help="rule set (default: classic)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("odds", help="exact odds of one roll for a farm")
    p.add_argument("herd", metavar="HERD", help="e.g. rabbit=6,sheep=1 ('' is an empty farm)")
    p.add_argument("--stock", metavar="HERD", help="main herd (default: endless, as seed 004)")
    _add_variant(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("settle", help="settle one roll for a farm")
    p.add_argument("--herd", required=True, metavar="HERD")
    p.add_argument("--stock", metavar="HERD",
                   help="main herd (default: the full set minus this farm)")
    p.add_argument("--roll", required=True, metavar="GREEN,RED")
    _add_variant(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_settle)


def _parse_herd(text: str, what: str) -> Herd:
    try:
        return Herd.parse(text)
    except ValueError as exc:
        raise ValueError(f"bad {what}: {exc}") from None


def cmd_odds(args: argparse.Namespace) -> int:
    rules = variant(args.variant)
    farm = _parse_herd(args.herd, "HERD")
    stock = _parse_herd(args.stock, "--stock") if args.stock is not None else None
    result = odds(farm, stock, rules)
    if args.json:
        out = {"herd": farm.as_dict(), "variant": rules.name,
               "stock": stock.as_dict() if stock else "endless", **result.as_dict()}
        print(json.dumps(out))
        return 0
    print(f"farm {farm or '(empty)'} ({farm.value} rabbits), {rules.name} rules, "
          f"{'endless herd' if stock is None else 'herd ' + str(stock)}")
    print(f"expected gain per roll: {result.expected_gain} = {float(result.expected_gain):.3f} rabbits")
    print(f"chance of losing something: {result.loss} = {float(result.loss):.1%}")
    for animal, p in result.gain.items():
        print(f"  gains {animal.key:<6} {str(p):>7} = {float(p):6.1%}")
    print(f"chance to complete the farm this roll: {float(result.win):.1%}")
    return 0


def cmd_settle(args: argparse.Namespace) -> int:
    rules = variant(args.variant)
    farm = _parse_herd(args.herd, "--herd")
    roll = Roll.parse(args.roll)
    if args.stock is not None:
        stock = _parse_herd(args.stock, "--stock")
        # The farm and the herd together can never hold more than the full set.
        rules.stock_for(farm + stock)
    else:
        stock = rules.stock_for(farm)
    result = settle(farm, stock, roll, rules)
    if args.json:
        print(json.dumps({
            "herd": result.farm.as_dict(),
            "stock": result.stock.as_dict(),
            "roll": {"green": roll.green.value, "red": roll.red.value},
            "events": [e.as_dict() for e in result.events],
            "winner": result.won,
        }))
        return 0
    print(f"roll {roll}: {farm or '(empty)'} -> {result.farm or '(empty)'}")
    for e in result.events:
        print(f"  {e}")
    if result.won:
        print("  the farm is complete: winner!")
    return 0
